import type { FlowDefinition, FlowStep } from '@studychat/contracts/web';
import { lineDiff, type DiffLine } from './line-diff';

// The per-step diff of two flow versions (issue 31): what a researcher asks when comparing versions is which steps
// came, went or moved and what changed inside a step, not which lines of JSON moved. Pure, so it is unit tested.

/** Texts up to this length on one line are shown old → new; longer ones as 'changed' with a small line diff. */
export const SHORT_TEXT = 80;

/** One changed field, by its path inside its item (`questions[belief].text`, `arms.treatment.systemPrompt`). */
export type FieldChange =
  | { path: string; kind: 'added'; after: string }
  | { path: string; kind: 'removed'; before: string }
  | { path: string; kind: 'value'; before: string; after: string }
  | { path: string; kind: 'text'; lines: DiffLine[] };

/** A step in both versions: where it was and is, whether it moved (relative to the others) and what changed. */
export interface StepChange {
  id: string;
  type: FlowStep['type'];
  kind: 'added' | 'removed' | 'kept';
  /** 1-based positions; absent where the step is not. */
  before?: number;
  after?: number;
  moved: boolean;
  /** Also set when the type changed (a 'type' field). */
  fields: FieldChange[];
}

/** Items of a keyed list (conditions by id, pathways by key). */
export interface ListChange {
  added: string[];
  removed: string[];
  changed: { key: string; fields: FieldChange[] }[];
}

export interface FlowDiff {
  /** The study's id, title and texts. */
  study: FieldChange[];
  conditions: ListChange;
  pathways: ListChange;
  steps: StepChange[];
  /** Nothing differs. */
  same: boolean;
}

type Leaf = string | number | boolean | null;

/** Every leaf of a value by path; lists of objects with a unique `key` or `id` are keyed by it, so order is a leaf. */
function flatten(value: unknown, path: string, out: Map<string, Leaf>): Map<string, Leaf> {
  if (value === null || typeof value !== 'object') {
    if (value !== undefined) out.set(path, value as Leaf);
    return out;
  }
  const join = (key: string) => (path ? `${path}.${key}` : key);
  if (Array.isArray(value)) {
    const keys = value.map((item) => itemKey(item));
    const keyed = keys.every((k) => k !== undefined) && new Set(keys).size === keys.length && keys.length > 0;
    if (keyed) {
      out.set(`${path} (order)`, keys.join(', '));
      value.forEach((item, i) => flatten(item, `${path}[${keys[i]}]`, out));
    } else if (value.every((item) => item === null || typeof item !== 'object')) {
      out.set(path, value.map((item) => String(item)).join(', '));
    } else {
      value.forEach((item, i) => flatten(item, join(String(i)), out));
    }
    if (value.length === 0) out.set(path, '(none)');
    return out;
  }
  for (const [key, child] of Object.entries(value)) flatten(child, join(key), out);
  return out;
}

function itemKey(item: unknown): string | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
  const record = item as Record<string, unknown>;
  const key = record.key ?? record.id;
  return typeof key === 'string' ? key : undefined;
}

const show = (leaf: Leaf): string => (typeof leaf === 'string' ? leaf : JSON.stringify(leaf));
const isLong = (text: string) => text.length > SHORT_TEXT || text.includes('\n');

/** A long text's lines: its own lines, or its sentences when it is one line. */
function textLines(text: string): string {
  return text.includes('\n') ? text : text.split(/(?<=[.!?])\s+/).join('\n');
}

/** The changed fields between two values (a step, a condition), in the order of the newer one's fields. */
export function fieldChanges(before: unknown, after: unknown): FieldChange[] {
  const a = flatten(before, '', new Map());
  const b = flatten(after, '', new Map());
  const changes: FieldChange[] = [];
  for (const [path, value] of b) {
    if (!a.has(path)) {
      changes.push({ path, kind: 'added', after: show(value) });
      continue;
    }
    const old = a.get(path) as Leaf;
    if (old === value) continue;
    const [x, y] = [show(old), show(value)];
    const lines = isLong(x) || isLong(y) ? lineDiff(textLines(x), textLines(y)) : null;
    changes.push(lines ? { path, kind: 'text', lines } : { path, kind: 'value', before: x, after: y });
  }
  for (const [path, value] of a) if (!b.has(path)) changes.push({ path, kind: 'removed', before: show(value) });
  return changes;
}

function listChanges<T>(before: T[], after: T[], keyOf: (item: T) => string): ListChange {
  const a = new Map(before.map((item) => [keyOf(item), item]));
  const b = new Map(after.map((item) => [keyOf(item), item]));
  return {
    added: [...b.keys()].filter((k) => !a.has(k)),
    removed: [...a.keys()].filter((k) => !b.has(k)),
    changed: [...b.entries()]
      .filter(([k]) => a.has(k))
      .map(([key, item]) => ({ key, fields: fieldChanges(a.get(key), item) }))
      .filter((c) => c.fields.length > 0),
  };
}

/** The ids kept in their relative order (a longest common subsequence); the other kept ids moved. */
function inPlace(before: string[], after: string[]): Set<string> {
  const n = before.length;
  const m = after.length;
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  const at = (i: number, j: number) => lcs[i * width + j] ?? 0;
  for (let i = n - 1; i >= 0; i -= 1) {
    for (let j = m - 1; j >= 0; j -= 1) {
      lcs[i * width + j] = before[i] === after[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const kept = new Set<string>();
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    const id = before[i];
    if (id !== undefined && id === after[j]) {
      kept.add(id);
      i += 1;
      j += 1;
    } else if (at(i + 1, j) >= at(i, j + 1)) i += 1;
    else j += 1;
  }
  return kept;
}

/** What changed from one flow version to another: study texts, conditions, pathways, and step by step. */
export function flowDiff(before: FlowDefinition, after: FlowDefinition): FlowDiff {
  const study = fieldChanges(
    { id: before.id, title: before.title, texts: before.texts },
    { id: after.id, title: after.title, texts: after.texts },
  );
  const conditions = listChanges(before.conditions, after.conditions, (c) => c.id);
  const pathways = listChanges(before.pathways, after.pathways, (p) => p.key);
  const beforeIds = before.steps.map((s) => s.id);
  const afterIds = after.steps.map((s) => s.id);
  const common = new Set(afterIds.filter((id) => beforeIds.includes(id)));
  const still = inPlace(
    beforeIds.filter((id) => common.has(id)),
    afterIds.filter((id) => common.has(id)),
  );
  const steps: StepChange[] = [];
  after.steps.forEach((step, i) => {
    const at = beforeIds.indexOf(step.id);
    if (at < 0) {
      steps.push({ id: step.id, type: step.type, kind: 'added', after: i + 1, moved: false, fields: [] });
      return;
    }
    steps.push({
      id: step.id,
      type: step.type,
      kind: 'kept',
      before: at + 1,
      after: i + 1,
      moved: !still.has(step.id),
      fields: fieldChanges(before.steps[at], step),
    });
  });
  // A removed step is listed after the step that preceded it in the older version.
  before.steps.forEach((step, i) => {
    if (common.has(step.id)) return;
    const preceding = before.steps[i - 1]?.id;
    const previous = preceding === undefined ? -1 : steps.findIndex((s) => s.id === preceding);
    const change: StepChange = {
      id: step.id,
      type: step.type,
      kind: 'removed',
      before: i + 1,
      moved: false,
      fields: [],
    };
    steps.splice(previous + 1, 0, change);
  });
  const same =
    study.length === 0 &&
    [conditions, pathways].every((l) => l.added.length + l.removed.length + l.changed.length === 0) &&
    steps.every((s) => s.kind === 'kept' && !s.moved && s.fields.length === 0);
  return { study, conditions, pathways, steps, same };
}

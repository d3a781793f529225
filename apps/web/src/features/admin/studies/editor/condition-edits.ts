// Adding, renaming and removing a condition in a study draft (docs/decisions/0061): the declared list and every
// per-condition part change together, so the draft stays keyed by exactly the declared ids.

type Draft = Record<string, unknown>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The per-condition parts of a definition, as paths from the root. */
const PARTS = [['conditions'], ['chat', 'conditions'], ['chat', 'fallbackGreetings'], ['chat', 'completion']] as const;

/** A copy of `draft` with each per-condition part passed through `change` (parts that are absent stay absent). */
function eachPart(draft: Draft, change: (part: Record<string, unknown>) => Record<string, unknown>): Draft {
  const next: Draft = { ...draft };
  const chat = isRecord(draft.chat) ? { ...draft.chat } : undefined;
  for (const path of PARTS) {
    const holder = path.length === 1 ? next : chat;
    const key = path[path.length - 1] as string;
    if (!holder || !isRecord(holder[key])) continue;
    holder[key] = change(holder[key]);
  }
  if (chat) next.chat = chat;
  return next;
}

const list = (draft: Draft): { id: string; label: string }[] =>
  Array.isArray(draft.conditionList) ? (draft.conditionList as { id: string; label: string }[]) : [];

/** Renames a condition: its id in the list and its key in every part, keeping the parts' order. */
export function renameCondition(draft: Draft, from: string, to: string): Draft {
  if (from === to) return draft;
  const next = eachPart(draft, (part) =>
    Object.fromEntries(Object.entries(part).map(([key, value]) => [key === from ? to : key, value])),
  );
  next.conditionList = list(draft).map((c) => (c.id === from ? { ...c, id: to } : c));
  return next;
}

/** Adds a condition after the others, its parts copied from the last condition's (edit them from there). */
export function addCondition(draft: Draft): Draft {
  const current = list(draft);
  const ids = new Set(current.map((c) => c.id));
  let n = current.length + 1;
  while (ids.has(`condition_${n}`)) n += 1;
  const id = `condition_${n}`;
  const last = current[current.length - 1]?.id;
  const next = eachPart(draft, (part) =>
    last !== undefined && part[last] !== undefined ? { ...part, [id]: structuredClone(part[last]) } : part,
  );
  next.conditionList = [...current, { id, label: `Condition ${n}` }];
  return next;
}

/** Removes a condition from the list and from every part. */
export function removeCondition(draft: Draft, id: string): Draft {
  const next = eachPart(draft, (part) => Object.fromEntries(Object.entries(part).filter(([key]) => key !== id)));
  next.conditionList = list(draft).filter((c) => c.id !== id);
  return next;
}

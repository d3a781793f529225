import type { StudyDefinition } from '../study/types.js';
import type { Comparison, FlowDefinition, FlowQuestion, FlowStep, Rule } from './types.js';

// Pure rules over a flow and a participant's answers, shared by the server (which decides) and the browser
// (which only shows): which steps a condition walks, what a rule says, what a pipe reads.

/** One stored answer: a choice's value or free text, a number, or a multiple choice's values. */
export type AnswerValue = string | number | string[];

/** A participant's answers by key (question keys, and confirmed AI texts by their step id). */
export type Answers = Readonly<Record<string, AnswerValue | undefined>>;

/** Whether a step is shown to a participant in `condition` (null: not yet randomised, sees only steps for all). */
export function shownTo(step: FlowStep, condition: string | null): boolean {
  if (!step.conditions) return true;
  return condition !== null && step.conditions.includes(condition);
}

/**
 * Whether a step has anything for the condition: a reading or chat step only for a condition it has sections or
 * an arm for (null: not yet randomised, the step is not reached before randomisation anyway).
 */
export function stepHasContent(step: FlowStep, condition: string | null): boolean {
  if (step.type === 'reading') return condition !== null && (step.sections[condition]?.length ?? 0) > 0;
  if (step.type === 'chat') return condition !== null && step.arms[condition] !== undefined;
  return true;
}

/** The steps a participant in `condition` walks, in order (end steps included: the walk stops at the first). */
export function stepsFor(flow: FlowDefinition, condition: string | null): FlowStep[] {
  return flow.steps.filter((step) => shownTo(step, condition) && stepHasContent(step, condition));
}

function asNumber(value: AnswerValue | undefined): number | null {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}

function same(answer: AnswerValue | undefined, value: string | number): boolean {
  if (answer === undefined || Array.isArray(answer)) return false;
  const a = asNumber(answer);
  const b = asNumber(value);
  return a !== null && b !== null ? a === b : String(answer) === String(value);
}

function compare(c: Comparison, answers: Answers): boolean {
  const answer = answers[c.key];
  const value = c.value;
  switch (c.op) {
    case 'answered':
      return answer !== undefined && !(Array.isArray(answer) && answer.length === 0) && answer !== '';
    case 'eq':
      return value !== undefined && !Array.isArray(value) && same(answer, value);
    case 'ne':
      return answer !== undefined && value !== undefined && !Array.isArray(value) && !same(answer, value);
    case 'in':
      return Array.isArray(value) && value.some((v) => same(answer, v));
    case 'includes':
      return Array.isArray(answer) && value !== undefined && !Array.isArray(value) && answer.includes(String(value));
    default: {
      const a = asNumber(answer);
      const b = typeof value === 'number' ? value : null;
      if (a === null || b === null) return false;
      if (c.op === 'lt') return a < b;
      if (c.op === 'lte') return a <= b;
      if (c.op === 'gt') return a > b;
      return a >= b;
    }
  }
}

/** Whether a rule holds for the answers (an unanswered key makes a comparison false, except 'ne' and 'answered'). */
export function ruleHolds(rule: Rule, answers: Answers): boolean {
  if ('all' in rule) return rule.all.every((r) => ruleHolds(r, answers));
  if ('any' in rule) return rule.any.some((r) => ruleHolds(r, answers));
  return compare(rule, answers);
}

/** The keys a rule reads. */
export function ruleKeys(rule: Rule): string[] {
  if ('all' in rule) return rule.all.flatMap(ruleKeys);
  if ('any' in rule) return rule.any.flatMap(ruleKeys);
  return [rule.key];
}

/** Whether an answer passes its question's attention check (true when the question has none). */
export function checkPasses(question: FlowQuestion, answer: AnswerValue | undefined): boolean {
  const check = question.check;
  if (!check) return true;
  const { expected } = check;
  if (Array.isArray(expected)) {
    if (!Array.isArray(answer)) return false;
    return answer.length === expected.length && expected.every((v) => answer.includes(v));
  }
  return same(answer, expected);
}

const PIPE = /\{\{\s*([a-z][a-z0-9_]{0,49})\s*\}\}/g;

/** The keys a text pipes (`{{key}}`), in order, each once. */
export function pipedKeys(text: string): string[] {
  return [...new Set([...text.matchAll(PIPE)].map((m) => m[1] ?? ''))];
}

/** A text with each `{{key}}` replaced by `display(key)` (an unknown key is left as written). */
export function pipe(text: string, display: (key: string) => string | undefined): string {
  return text.replace(PIPE, (whole, key: string) => display(key) ?? whole);
}

/** Every question of the flow by its key. */
export function questionsByKey(flow: FlowDefinition): Map<string, FlowQuestion> {
  const byKey = new Map<string, FlowQuestion>();
  for (const step of flow.steps) if (step.type === 'questions') for (const q of step.questions) byKey.set(q.key, q);
  return byKey;
}

/**
 * How an answer reads in a text: a choice's label (multiple: labels joined with commas), a number as written,
 * free text as given. Undefined when not answered.
 */
export function displayAnswer(question: FlowQuestion | undefined, answer: AnswerValue | undefined): string | undefined {
  if (answer === undefined) return undefined;
  if (question && (question.type === 'single' || question.type === 'multiple')) {
    const label = (v: string) => question.options.find((o) => o.value === v)?.label ?? v;
    return Array.isArray(answer) ? answer.map(label).join(', ') : label(String(answer));
  }
  return Array.isArray(answer) ? answer.join(', ') : String(answer);
}

/** A text with the participant's answers piped in. */
export function pipeAnswers(text: string, flow: FlowDefinition, answers: Answers): string {
  const questions = questionsByKey(flow);
  return pipe(text, (key) => displayAnswer(questions.get(key), answers[key]));
}

/** Whether a stored study definition is written as a flow (else it is in the built-in shape). */
export function isFlowDefinition(definition: unknown): definition is FlowDefinition {
  return (
    typeof definition === 'object' && definition !== null && (definition as { format?: unknown }).format === 'flow'
  );
}

/** A definition known to be in the built-in shape (an editor or tool that handles only that shape); throws for a flow. */
export function inBuiltInShape(definition: StudyDefinition | FlowDefinition): StudyDefinition {
  if (isFlowDefinition(definition))
    throw new Error('this study is written as a flow of steps, not in the built-in shape');
  return definition;
}

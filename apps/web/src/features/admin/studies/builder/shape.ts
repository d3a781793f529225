import type { FlowDefinition } from '@studychat/contracts/web';

// Whether the JSON holds a flow the builder's forms can show (the lists and objects they walk are there); the
// rest of the shape (every text, number and pattern) is the server's check, shown as issues like any other.

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const STEP_PARTS: Record<string, string[]> = {
  page: ['blocks'],
  questions: ['questions'],
  reading: ['intro'],
  chat: ['arms'],
  ai_text: [],
  randomise: ['weights'],
  screen: ['when'],
  end: ['blocks'],
};
const LISTS = new Set(['blocks', 'questions', 'intro']);

function stepShaped(step: unknown): boolean {
  if (!isRecord(step) || typeof step.id !== 'string' || typeof step.type !== 'string') return false;
  const parts = STEP_PARTS[step.type];
  if (!parts) return false;
  if (step.conditions !== undefined && !Array.isArray(step.conditions)) return false;
  if (step.type === 'reading' && !isRecord(step.sections)) return false;
  if (step.type === 'questions' && !(step.questions as unknown[]).every?.((q) => isRecord(q))) return false;
  if (step.type === 'chat' && isRecord(step.arms) && !Object.values(step.arms).every(armShaped)) return false;
  return parts.every((part) => (LISTS.has(part) ? Array.isArray(step[part]) : isRecord(step[part])));
}

function armShaped(arm: unknown): boolean {
  return isRecord(arm) && isRecord(arm.completion) && isRecord(arm.scripted) && Array.isArray(arm.scripted.replies);
}

export function isBuildableFlow(value: unknown): value is FlowDefinition {
  return (
    isRecord(value) &&
    value.format === 'flow' &&
    isRecord(value.texts) &&
    Array.isArray(value.conditions) &&
    value.conditions.every(isRecord) &&
    Array.isArray(value.pathways) &&
    value.pathways.every(isRecord) &&
    Array.isArray(value.steps) &&
    value.steps.every(stepShaped)
  );
}

/** The records a step type needs, put back when the last key of one was removed (a weight, an arm). */
const CONTAINERS: Record<string, string> = { randomise: 'weights', chat: 'arms', reading: 'sections' };

export function withContainers(value: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(value.steps)) return value;
  let changed = false;
  const steps = value.steps.map((step: unknown) => {
    if (!isRecord(step) || typeof step.type !== 'string') return step;
    const part = CONTAINERS[step.type];
    if (!part || step[part] !== undefined) return step;
    changed = true;
    return { ...step, [part]: {} };
  });
  return changed ? { ...value, steps } : value;
}

import type { FlowDefinition, FlowStep, FlowStepType } from '@studychat/contracts/web';
import { answerKeys, newStep, uniqueId } from './defaults';

// The step list's edits, each a new flow (the builder's state is never changed in place).

/** Where a new step goes: before the first end step (what follows an end is reached only by a screen). */
export function insertionIndex(flow: FlowDefinition): number {
  const end = flow.steps.findIndex((s) => s.type === 'end');
  return end === -1 ? flow.steps.length : end;
}

export function addStep(flow: FlowDefinition, type: FlowStepType): { flow: FlowDefinition; index: number } {
  const index = type === 'end' ? flow.steps.length : insertionIndex(flow);
  const step = newStep(type, flow, index);
  return { flow: { ...flow, steps: [...flow.steps.slice(0, index), step, ...flow.steps.slice(index)] }, index };
}

export function removeStep(flow: FlowDefinition, index: number): FlowDefinition {
  return { ...flow, steps: flow.steps.filter((_, i) => i !== index) };
}

/** A copy of the step right after it, with a new id and, for questions, new answer keys. */
export function duplicateStep(flow: FlowDefinition, index: number): FlowDefinition {
  const step = flow.steps[index];
  if (!step) return flow;
  const taken = [...flow.steps.map((s) => s.id), ...answerKeys(flow)];
  const copy = structuredClone(step) as FlowStep;
  copy.id = uniqueId(`${step.id}_copy`, taken);
  if (copy.type === 'questions') {
    const keys = [...taken, copy.id];
    for (const q of copy.questions) {
      q.key = uniqueId(`${q.key}_copy`, keys);
      keys.push(q.key);
    }
  }
  return { ...flow, steps: [...flow.steps.slice(0, index + 1), copy, ...flow.steps.slice(index + 1)] };
}

export function moveStep(flow: FlowDefinition, from: number, to: number): FlowDefinition {
  if (to < 0 || to >= flow.steps.length || from === to) return flow;
  const steps = [...flow.steps];
  const [step] = steps.splice(from, 1);
  steps.splice(to, 0, step as FlowStep);
  return { ...flow, steps };
}

/** The answer keys a step at `index` may read: questions' keys and AI texts of the steps before it. */
export function earlierKeys(flow: FlowDefinition, index: number): string[] {
  return answerKeys({ ...flow, steps: flow.steps.slice(0, index) });
}

/** The step shown to these conditions; none is everyone (the key is removed). */
export function withConditions(step: FlowStep, conditions: string[]): FlowStep {
  const { conditions: _old, ...rest } = step;
  void _old;
  return (conditions.length === 0 ? rest : { ...rest, conditions }) as FlowStep;
}

/** A new condition, with weight 1 in the randomise step (a chat gives it no arm until the researcher adds one). */
export function addCondition(flow: FlowDefinition): FlowDefinition {
  const id = uniqueId(
    `arm_${flow.conditions.length + 1}`,
    flow.conditions.map((c) => c.id),
  );
  return {
    ...flow,
    conditions: [...flow.conditions, { id, label: `Arm ${flow.conditions.length + 1}` }],
    steps: flow.steps.map((s) => (s.type === 'randomise' ? { ...s, weights: { ...s.weights, [id]: 1 } } : s)),
  };
}

/** The flow without a condition: nor its weight, arm, sections, or place in a step's list of conditions. */
export function removeCondition(flow: FlowDefinition, index: number): FlowDefinition {
  const id = flow.conditions[index]?.id;
  if (id === undefined) return flow;
  const without = <T>(record: Record<string, T>) =>
    Object.fromEntries(Object.entries(record).filter(([k]) => k !== id));
  return {
    ...flow,
    conditions: flow.conditions.filter((_, i) => i !== index),
    steps: flow.steps.map((s) => {
      // A step only that condition saw keeps naming it: the check shows it for the researcher to decide.
      const listed = s.conditions?.filter((c) => c !== id);
      let step = listed && listed.length > 0 ? withConditions(s, listed) : s;
      if (step.type === 'randomise') step = { ...step, weights: without(step.weights) };
      if (step.type === 'chat') step = { ...step, arms: without(step.arms) };
      if (step.type === 'reading') step = { ...step, sections: without(step.sections) };
      return step;
    }),
  };
}

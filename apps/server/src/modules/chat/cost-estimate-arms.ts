import {
  chatRuleFor,
  conditionIds,
  conditionLabel,
  pipe,
  type FlowDefinition,
  type FlowStep,
  type StudyDefinition,
} from '@studychat/contracts';
import type { ArmPlan } from './cost-estimate.js';

// What each arm of a study calls a model with, for the cost estimate (cost-estimate.ts): from a study in the
// built-in shape (each condition's chat prompt and completion rule) or a flow (its chat steps' arms and its AI
// text steps, each seen by the conditions it names). An arm with no model call has no chats or texts: it costs 0.

/** The built-in shape: every condition chats once, on its own prompt and rule; the conditions are equally likely. */
export function builtInArms(study: StudyDefinition): ArmPlan[] {
  return conditionIds(study).map((condition) => {
    const chat = study.chat.conditions[condition];
    const rule = chatRuleFor(study.chat.completion, condition);
    return {
      condition,
      label: conditionLabel(study, condition),
      weight: 1,
      chats: chat ? [{ settings: chat.settings, promptChars: chat.systemPrompt.length, ...rule }] : [],
      texts: [],
    };
  });
}

/** The most characters each pipe can put in a text: a choice's longest label, a text answer's or AI text's maximum. */
function pipeLengths(flow: FlowDefinition): Map<string, number> {
  const lengths = new Map<string, number>();
  for (const step of flow.steps) {
    if (step.type === 'ai_text') lengths.set(step.id, step.maxChars);
    if (step.type !== 'questions') continue;
    for (const q of step.questions) {
      const labels = q.type === 'single' || q.type === 'multiple' ? q.options.map((o) => o.label.length) : [];
      const length =
        q.type === 'single'
          ? Math.max(0, ...labels)
          : q.type === 'multiple'
            ? labels.reduce((s, n) => s + n + 2, 0)
            : q.type === 'text'
              ? q.maxChars
              : 4;
      lengths.set(q.key, length);
    }
  }
  return lengths;
}

/** A text's length with each pipe at its estimate (an unknown key stays as written, as the chat sends it). */
export function pipedLength(text: string, lengths: Map<string, number>): number {
  return pipe(text, (key) => {
    const n = lengths.get(key);
    return n === undefined ? undefined : 'x'.repeat(n);
  }).length;
}

const sees = (step: FlowStep, condition: string) => !step.conditions || step.conditions.includes(condition);

/** A flow: per condition, the chat steps with its arm and the AI text steps it sees; weights from the randomise step. */
export function flowArms(flow: FlowDefinition): ArmPlan[] {
  const lengths = pipeLengths(flow);
  const randomise = flow.steps.find((s) => s.type === 'randomise');
  return flow.conditions.map(({ id: condition, label }) => {
    const plan: ArmPlan = {
      condition,
      label,
      weight: randomise ? (randomise.weights[condition] ?? 0) : 1,
      chats: [],
      texts: [],
    };
    for (const step of flow.steps) {
      if (!sees(step, condition)) continue;
      if (step.type === 'chat') {
        const arm = step.arms[condition];
        if (!arm) continue;
        const opening = arm.openingInstruction ? `\n\nWhen the conversation opens: ${arm.openingInstruction}` : '';
        plan.chats.push({
          settings: arm.model,
          promptChars: pipedLength(`${arm.systemPrompt}${opening}`, lengths),
          rounds: arm.completion.rounds,
          points: arm.completion.points,
        });
      }
      if (step.type === 'ai_text')
        plan.texts.push({
          settings: step.model,
          promptChars: pipedLength(step.prompt, lengths),
          maxChars: step.maxChars,
        });
    }
    return plan;
  });
}

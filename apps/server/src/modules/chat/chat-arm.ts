import {
  chatRuleFor,
  perConditionPart,
  pipeAnswers,
  type FlowModel,
  type ChatRule,
  type Condition,
  type ConditionChat,
} from '@studychat/contracts';
import type { AppDeps } from '../../lib/deps.js';
import { chatStepOf, readFlowState } from '../journey/journey.service.js';
import { toCondition } from './chat.mapper.js';

// What a thread's condition chats with: its prompt, scripted texts, model settings and completion rule, from the
// study the experiment runs. A study in the built-in shape names them per condition; a flow in its chat step's
// arm, whose prompt may pipe the participant's earlier answers (issue 30).

export interface ChatArmSettings {
  condition: Condition;
  systemPrompt: string;
  scripted: ConditionChat['scripted'];
  /** The model and its knobs; a flow's arm may also name its provider (llm/model-choice.ts). */
  settings?: FlowModel;
}

export interface ResolvedArm {
  /** Null when the study does not declare the thread's condition (refused 403 before any model call). */
  arm: ChatArmSettings | null;
  rule: ChatRule;
}

/** The thread's arm in the experiment's study. */
export async function chatArmOf(
  deps: AppDeps,
  thread: { experiment_id: string; user_id: string; condition: string },
): Promise<ResolvedArm> {
  const flow = await deps.flows(thread.experiment_id);
  if (!flow) {
    const study = await deps.studies(thread.experiment_id);
    const condition = toCondition(study, thread.condition);
    const rule = chatRuleFor(study.chat.completion, condition);
    if (!condition) return { arm: null, rule };
    const chat = perConditionPart(study.chat.conditions, condition, 'chat');
    return {
      arm: { condition, systemPrompt: chat.systemPrompt, scripted: chat.scripted, settings: chat.settings },
      rule,
    };
  }
  const arm = chatStepOf(flow)?.arms[thread.condition];
  if (!arm) return { arm: null, rule: chatRuleFor(undefined, null) };
  const { minMinutes: _min, maxMinutes: _max, ...rule } = arm.completion;
  // The prompt pipes the participant's own answers (their belief, their rating): read with their facts.
  const state = await readFlowState(deps, thread.user_id, thread.experiment_id);
  const prompt = pipeAnswers(arm.systemPrompt, flow, state.facts.records.answers);
  const opening = arm.openingInstruction ? `\n\nWhen the conversation opens: ${arm.openingInstruction}` : '';
  return {
    arm: {
      condition: thread.condition,
      systemPrompt: `${prompt}${opening}`,
      scripted: arm.scripted,
      ...(arm.model ? { settings: arm.model } : {}),
    },
    rule,
  };
}

import { afterPathwayRecorded } from '../prolific/prolific.service.js';
import {
  answersProblems,
  normaliseAnswers,
  pipeAnswers,
  textLength,
  type AiTextStep,
  type AnswerValue,
  type FlowCodesReply,
  type FlowDefinition,
  type FlowView,
  type GeneratedTextReply,
  type QuestionsStep,
  type RandomiseStep,
  type SubmitFlowStepBody,
} from '@studychat/contracts';
import type { AppDeps } from '../../lib/deps.js';
import { AppError, conflict } from '../../lib/errors.js';
import type { ChatModel } from '../../llm/chat-model.js';
import { modelFor } from '../../llm/model-choice.js';
import { modelSettings } from '../../llm/model-settings.js';
import { costOf, priceFor, type PriceTable } from '../../llm/pricing.js';
import {
  flowWrite,
  readFlowState,
  requireFlow,
  type FlowState,
  type FlowStepContext,
  type FlowStepOutcome,
  type StepEvent,
} from '../journey/journey.service.js';
import {
  assignFlowCondition,
  isRandomisationRetry,
  recordCompletionOf,
  recordConsent,
} from '../participants/participants.service.js';
import { experimentCodes, requireExperiment, saveFlowCodes } from '../experiments/experiments.service.js';
import { remainingSeconds, toFlowView } from './flow-view.js';
import { completeStepRecord, insertStepRecord, updateOpenStepRecord } from './step-records.repository.js';

// A participant's walk through a study written as a flow (issue 30, docs/decisions/0075). Every write goes
// through the flow gate (journey/flow-gate.ts): one step at a time, repeats answered unchanged, each step's
// record and event in one transaction. The view after a write is read inside it.

const RANDOMISE_ATTEMPTS = 25;
/** The AI text's reply bound: a short text the participant confirms. */
const AI_TEXT_TOKENS = 600;
const AI_TEXT_SYSTEM =
  'You write one short text for a participant in a research study, exactly as the instructions ask. Answer with the text only.';

export interface FlowContext {
  deps: AppDeps;
  prices: PriceTable;
}

/** Where the participant is in the experiment's flow (404 before they joined; 409 for a built-in-shape study). */
export async function getFlowView(deps: AppDeps, userId: string, experimentId: string): Promise<FlowView> {
  return toFlowView(experimentId, await readFlowState(deps, userId, experimentId), deps.clock());
}

function badAnswers(issues: { key: string; message: string }[]): AppError {
  const first = issues[0];
  return new AppError(
    400,
    'ANSWERS_INVALID',
    first ? `${first.key}: ${first.message}` : 'The answers are not valid.',
    undefined,
    { issues: issues.map((i) => ({ path: i.key, message: i.message })) },
  );
}

/** The stratum of a randomise step: the bin the stratifying answer falls in ('all' without strata). */
export function stratumOf(step: RandomiseStep, answers: Readonly<Record<string, AnswerValue | undefined>>): string {
  if (!step.strata) return 'all';
  const answer = answers[step.strata.key];
  const n = typeof answer === 'number' ? answer : typeof answer === 'string' ? Number(answer) : NaN;
  for (const bin of step.strata.bins) {
    if (bin.values && typeof answer === 'string' && bin.values.includes(answer)) return bin.label;
    if (bin.values && Array.isArray(answer) && answer.some((a) => bin.values?.includes(a))) return bin.label;
    const inRange = (bin.min === undefined || n >= bin.min) && (bin.max === undefined || n <= bin.max);
    if (!bin.values && (bin.min !== undefined || bin.max !== undefined) && Number.isFinite(n) && inRange) {
      return bin.label;
    }
  }
  return 'unbinned';
}

async function applyStep(
  deps: AppDeps,
  experimentId: string,
  body: SubmitFlowStepBody,
  ctx: FlowStepContext,
): Promise<FlowStepOutcome<true>> {
  const { trx, state, step, now } = ctx;
  const iso = now.toISOString();
  const record = (data: Record<string, unknown>) =>
    insertStepRecord(trx, {
      id: deps.newId(),
      assignmentId: state.assignmentId,
      stepId: step.id,
      stepType: step.type,
      data,
      doneAt: iso,
      now: iso,
    });
  switch (step.type) {
    case 'page': {
      const left = remainingSeconds(step.minSeconds, state.facts.lastDoneAt, now);
      if (left > 0) {
        const refusal = new AppError(
          409,
          'STEP_TOO_EARLY',
          `Please stay on this page a little longer (${left} s).`,
          undefined,
          { remainingSeconds: left },
        );
        return { refusal, event: { type: 'out_of_order', data: { attempted: step.id, remainingSeconds: left } } };
      }
      if (step.consent) {
        if (!(await recordConsent(trx, state.assignmentId, iso))) throw conflict('Consent was already recorded');
        return { result: true, event: { type: 'consented' } };
      }
      await record({});
      return { result: true, event: { type: 'step_done' } };
    }
    case 'questions': {
      const answers = body.answers ?? {};
      const problems = answersProblems(step, answers);
      if (problems.length > 0) throw badAnswers(problems);
      const stored = normaliseAnswers(step, answers);
      await record({ answers: stored });
      // The event keeps what routes the journey (choices and numbers), never free text.
      return { result: true, event: { type: 'step_done', data: { answers: routingAnswers(step, stored) } } };
    }
    case 'ai_text': {
      const generated = state.facts.steps.find((r) => r.stepId === step.id);
      if (!generated?.data.generated) {
        throw new AppError(409, 'STEP_OUT_OF_ORDER', 'The text has not been written yet: please wait for it.');
      }
      const text = confirmedText(step, generated.data.generated, body.text);
      const data = { ...generated.data, text, corrected: text !== generated.data.generated };
      if (!(await completeStepRecord(trx, { assignmentId: state.assignmentId, stepId: step.id, data, now: iso }))) {
        throw new Error('the AI text record was not completed');
      }
      return { result: true, event: { type: 'step_done', data: { corrected: data.corrected } } };
    }
    case 'randomise': {
      const stratum = stratumOf(step, state.facts.records.answers);
      const assigned = await assignFlowCondition(trx, deps, {
        assignmentId: state.assignmentId,
        experimentId,
        weights: step.weights,
        stratum,
        now,
      });
      return { result: true, event: { type: 'assigned', data: { condition: assigned.assigned_condition, stratum } } };
    }
    case 'end': {
      const written = await recordCompletionOf(trx, {
        id: state.assignmentId,
        experimentId,
        pathway: step.pathway,
        at: iso,
      });
      if (!written) throw new Error('completion could not be recorded');
      return { result: true, event: { type: 'completed', data: { pathway: step.pathway } } };
    }
    case 'chat':
      throw new AppError(
        409,
        'STEP_OUT_OF_ORDER',
        'The chat is done when its goal is reached: use the chat page to continue.',
      );
    case 'reading':
      return finishSection(deps, body, ctx);
    case 'screen':
      throw new Error(`a participant cannot write a ${step.type} step of a flow`);
  }
}

/**
 * Finishes the section the participant is reading, once its minimum has passed on the server's clock since it
 * opened (when the one before was finished, or the step reached); earlier, 409 SECTION_TOO_EARLY with the seconds
 * left. A section already finished is a repeat (nothing written); one further on is out of order. The sections
 * are one record, done with the last.
 */
async function finishSection(
  deps: AppDeps,
  body: SubmitFlowStepBody,
  ctx: FlowStepContext,
): Promise<FlowStepOutcome<true>> {
  const { trx, state, step, now } = ctx;
  const index = body.section;
  if (index === undefined) throw new AppError(400, 'VALIDATION_FAILED', 'section: say which section was read.');
  const current = state.position.currentSection ?? 0;
  if (index < current) return { result: true };
  const section = state.facts.records.sections[index];
  if (index > current || !section) {
    const refusal = new AppError(
      409,
      'STEP_OUT_OF_ORDER',
      `That is not the section you are reading: section ${current + 1}.`,
      undefined,
      { flowStep: step.id },
    );
    return { refusal, event: { type: 'out_of_order', data: { attempted: step.id, section: index } } };
  }
  const openedAt = section.openedAt ?? state.facts.lastDoneAt;
  const left = remainingSeconds(section.minSeconds, openedAt, now);
  if (left > 0) {
    const refusal = new AppError(
      409,
      'SECTION_TOO_EARLY',
      `Please keep reading: this section can be finished in ${left} second${left === 1 ? '' : 's'}.`,
      undefined,
      { remainingSeconds: left },
    );
    return { refusal, event: { type: 'section_too_early', data: { sectionIndex: index, remainingSeconds: left } } };
  }
  const iso = now.toISOString();
  const visibleSeconds = body.visibleSeconds ?? 0;
  const hiddenSeconds = body.hiddenSeconds ?? 0;
  const stored = state.facts.steps.find((r) => r.stepId === step.id);
  const sections = [
    ...(stored?.data.sections ?? []),
    { openedAt: new Date(openedAt).toISOString(), finishedAt: iso, visibleSeconds, hiddenSeconds },
  ];
  const last = index === state.facts.records.sections.length - 1;
  const data = { sections };
  if (!stored) {
    const record = { id: deps.newId(), assignmentId: state.assignmentId, stepId: step.id, stepType: step.type };
    await insertStepRecord(trx, { ...record, data, doneAt: last ? iso : null, now: iso });
  } else if (
    !(await updateOpenStepRecord(trx, {
      assignmentId: state.assignmentId,
      stepId: step.id,
      data,
      doneAt: last ? iso : null,
      now: iso,
    }))
  ) {
    throw new Error('the reading record was not updated');
  }
  const serverSeconds = Math.round(now.getTime() - openedAt) / 1000;
  const finished: StepEvent = {
    type: 'section_finished',
    data: { sectionIndex: index, serverSeconds, visibleSeconds, hiddenSeconds },
  };
  if (!last) return { result: true, event: finished };
  await ctx.log(finished);
  return { result: true, event: { type: 'step_done' } };
}

/** The answers that may route a flow (choices and numbers), for the event log: free text stays in the record. */
function routingAnswers(step: QuestionsStep, answers: Record<string, AnswerValue>): Record<string, AnswerValue> {
  const kept: Record<string, AnswerValue> = {};
  for (const q of step.questions) {
    const value = answers[q.key];
    if (value !== undefined && q.type !== 'text') kept[q.key] = value;
  }
  return kept;
}

/** The text the participant confirms: the generated one, or their correction where the step allows one. */
function confirmedText(step: AiTextStep, generated: string, sent: string | undefined): string {
  const text = sent?.trim();
  if (text === undefined || text === '' || text === generated.trim()) return generated;
  if (!step.allowCorrection) {
    throw new AppError(400, 'VALIDATION_FAILED', 'This text cannot be changed: please confirm it as it is.');
  }
  if (textLength(text) > step.maxChars) {
    throw new AppError(400, 'VALIDATION_FAILED', `Please write at most ${step.maxChars} characters.`);
  }
  return text;
}

/** One step's write; with the participant's view after it. */
export async function submitFlowStep(
  deps: AppDeps,
  userId: string,
  experimentId: string,
  stepId: string,
  body: SubmitFlowStepBody,
): Promise<FlowView> {
  for (let attempt = 0; attempt < RANDOMISE_ATTEMPTS; attempt++) {
    try {
      const { state } = await flowWrite(deps, { userId, experimentId, stepId }, (ctx) =>
        applyStep(deps, experimentId, body, ctx),
      );
      // At an end step, after the transaction: the server completes the Prolific submission (decision 0083).
      if (state.position.pathway !== null) afterPathwayRecorded(deps, userId, experimentId);
      return await viewWithCode(deps, userId, experimentId, state);
    } catch (error) {
      // Only a randomisation racing another process's is retried (the whole write, nothing kept).
      if (!isRandomisationRetry(error)) throw error;
    }
  }
  throw conflict('Many participants are being assigned at this moment. Please try again.');
}

async function viewWithCode(deps: AppDeps, userId: string, experimentId: string, state: FlowState): Promise<FlowView> {
  // At an end step the view carries the pathway's code, read with the facts (readFlowState).
  if (state.position.pathway !== null) return getFlowView(deps, userId, experimentId);
  return toFlowView(experimentId, state, deps.clock());
}

function aiTextStepAt(flow: FlowDefinition, stepId: string): AiTextStep | undefined {
  return flow.steps.find((s): s is AiTextStep => s.type === 'ai_text' && s.id === stepId);
}

/**
 * Writes the AI text of the step the participant is at, once: the model is called outside the gate's transaction,
 * then its text stored through the gate (a second call meanwhile finds the stored text and returns it). Refused
 * 409 at any other step.
 */
export async function generateAiText(
  ctx: FlowContext,
  userId: string,
  experimentId: string,
  stepId: string,
): Promise<GeneratedTextReply> {
  const { deps } = ctx;
  const before = await readFlowState(deps, userId, experimentId);
  const step = aiTextStepAt(before.flow, stepId);
  const at = before.position.step;
  const stored = before.facts.steps.find((r) => r.stepId === stepId);
  if (step && stored?.data.generated) {
    return { stepId, text: stored.data.generated, generatedAt: new Date(stored.createdAt).toISOString() };
  }
  if (!step || at?.id !== stepId) {
    throw new AppError(409, 'STEP_OUT_OF_ORDER', 'That is not the next step of the study.', undefined, {
      flowStep: at?.id ?? 'completed',
    });
  }
  const prompt = pipeAnswers(step.prompt, before.flow, before.facts.records.answers);
  const llm = modelFor(deps, step.model?.provider);
  if (!llm) throw new AppError(503, 'MODEL_UNAVAILABLE', 'The AI assistant is not available right now.');
  const generation = await callModel(ctx, llm, step, prompt, before.facts.records.condition);
  const now = deps.clock().toISOString();
  // Stored through the gate: a page reloaded meanwhile, or a second device, sees one text.
  const { state } = await flowWrite(deps, { userId, experimentId, stepId }, async (write) => {
    if (write.state.facts.steps.some((r) => r.stepId === stepId)) {
      return { result: true, event: { type: 'ai_text_generated', data: { repeat: true } } };
    }
    await insertStepRecord(write.trx, {
      id: deps.newId(),
      assignmentId: write.state.assignmentId,
      stepId,
      stepType: 'ai_text',
      data: generation,
      doneAt: null,
      now,
    });
    const { model, inputTokens, outputTokens, costUsd } = generation;
    return { result: true, event: { type: 'ai_text_generated', data: { model, inputTokens, outputTokens, costUsd } } };
  });
  const record = state.facts.steps.find((r) => r.stepId === stepId);
  const text = record?.data.generated ?? generation.generated;
  return { stepId, text, generatedAt: record ? new Date(record.createdAt).toISOString() : now };
}

async function callModel(
  ctx: FlowContext,
  llm: ChatModel,
  step: AiTextStep,
  prompt: string,
  condition: string | null,
): Promise<{
  generated: string;
  model: string;
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
}> {
  const asked = step.model?.model ?? llm.model;
  const price = step.model?.price ?? priceFor(asked, ctx.prices);
  if (!price) throw new AppError(503, 'MODEL_UNAVAILABLE', 'The AI assistant is not available right now.');
  let text = '';
  try {
    const info = await llm.streamReply(
      {
        system: AI_TEXT_SYSTEM,
        history: [{ role: 'user', content: prompt }],
        condition: condition ?? 'none',
        script: { opening: step.scripted, replies: [], closing: step.scripted },
        thinking: false,
        ...modelSettings(step.model, AI_TEXT_TOKENS),
      },
      (delta) => {
        text += delta;
      },
    );
    const generated = text.trim().slice(0, step.maxChars);
    if (generated === '') throw new Error('empty text');
    const usage = { inputTokens: info.inputTokens ?? 0, outputTokens: info.outputTokens ?? 0 };
    return {
      generated,
      model: info.model,
      inputTokens: info.inputTokens,
      outputTokens: info.outputTokens,
      costUsd: costOf(usage, price),
    };
  } catch {
    throw new AppError(503, 'MODEL_UNAVAILABLE', 'The text could not be written just now. Please try again.');
  }
}

/** The pinned flow's pathways with the experiment's code for each. */
export async function getFlowCodes(deps: AppDeps, experimentId: string): Promise<FlowCodesReply> {
  await requireExperiment(deps, experimentId);
  const flow = await requireFlow(deps, experimentId);
  const codes = await experimentCodes(deps, experimentId);
  return {
    pathways: flow.pathways.map((p) => ({
      key: p.key,
      label: p.label,
      description: p.description ?? null,
      code: codes.get(p.key) ?? null,
    })),
  };
}

/** Sets codes for the pinned flow's pathways (400 naming a key the flow does not have). */
export async function updateFlowCodes(
  deps: AppDeps,
  experimentId: string,
  codes: Record<string, string>,
): Promise<FlowCodesReply> {
  await requireExperiment(deps, experimentId);
  const flow = await requireFlow(deps, experimentId);
  const unknown = Object.keys(codes).filter((key) => !flow.pathways.some((p) => p.key === key));
  if (unknown.length > 0) {
    throw new AppError(400, 'VALIDATION_FAILED', `The study has no pathway "${unknown[0]}".`);
  }
  await saveFlowCodes(
    deps,
    experimentId,
    Object.entries(codes).map(([pathway, code]) => ({ pathway, code: code.trim() })),
  );
  return getFlowCodes(deps, experimentId);
}

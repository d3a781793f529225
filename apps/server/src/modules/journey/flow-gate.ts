import type { Transaction } from 'kysely';
import type { FlowDefinition, FlowStep, JourneyEventType } from '@studychat/contracts';
import type { DB } from '../../db/schema.js';
import type { AppDeps } from '../../lib/deps.js';
import { AppError, notFound } from '../../lib/errors.js';
import { appendEvent, countParticipantEvents } from './journey-events.repository.js';
import { lockJourneyFacts, readJourneyFacts, type JourneyFactRows } from './journey-facts.repository.js';
import { NO_PARTICIPATION } from './journey-errors.js';
import { flowPosition, stepDone, type FlowPosition } from './flow-position.js';
import { toFlowFacts, type FlowFacts } from './flow-records.js';
import { MAX_LOGGED_REFUSALS, type StepEvent } from './journey.service.js';
import { stepsFor } from '@studychat/contracts';

// The gate of a study written as a flow (issue 30, docs/decisions/0075), as `journeyWrite` is for the built-in
// shape: one transaction with the participant's assignment locked, their facts read, their position computed;
// a step already done is an idempotent repeat, the step they are at is applied and logged in the same
// transaction, any other is refused 409 STEP_OUT_OF_ORDER naming the step they are at.

/** 409 NOT_A_FLOW_STUDY: a flow route asked about an experiment whose study is in the built-in shape. */
export const NOT_A_FLOW_STUDY =
  'This experiment runs the built-in study: its pages are the study’s own, not a flow of steps.';

export interface FlowState {
  flow: FlowDefinition;
  facts: FlowFacts;
  position: FlowPosition;
  assignmentId: string;
  /** The experiment's completion code for the pathway the participant is at or has, when read with it. */
  code?: string | null;
}

/** A step write's result and its event (none: nothing new happened, e.g. a chat already started), or a refusal. */
export type FlowStepOutcome<T> = { result: T; event?: StepEvent } | { refusal: AppError; event: StepEvent };

export interface FlowStepContext {
  trx: Transaction<DB>;
  state: FlowState;
  /** The step being written (the one the participant is at). */
  step: FlowStep;
  now: Date;
  /** Appends another event of this write, in its transaction. */
  log(event: StepEvent): Promise<void>;
}

/** The experiment's flow; 409 NOT_A_FLOW_STUDY when it runs a study in the built-in shape. */
export async function requireFlow(deps: AppDeps, experimentId: string): Promise<FlowDefinition> {
  const flow = await deps.flows(experimentId);
  if (!flow) throw new AppError(409, 'NOT_A_FLOW_STUDY', NOT_A_FLOW_STUDY);
  return flow;
}

/** A participant's state in a flow from their facts' rows (the gate's reads; the data package's batch reads). */
export function flowStateOf(flow: FlowDefinition, rows: JourneyFactRows, now: number): FlowState {
  const facts = toFlowFacts(flow, rows, now);
  return { flow, facts, position: flowPosition(flow, facts.records), assignmentId: rows.assignment.id };
}

/** The participant's state in the flow, read in one statement; 404 NO_PARTICIPATION before they joined. */
export async function readFlowState(deps: AppDeps, userId: string, experimentId: string): Promise<FlowState> {
  const flow = await requireFlow(deps, experimentId);
  const first = await readJourneyFacts(deps.database.db, userId, experimentId);
  if (!first) throw notFound(NO_PARTICIPATION);
  const now = deps.clock().getTime();
  const state = flowStateOf(flow, first, now);
  const pathway = state.position.pathway;
  if (pathway === null) return state;
  // At an end step (or completed): the code is read with the facts, as the built-in study's release does.
  const rows = await readJourneyFacts(deps.database.db, userId, experimentId, pathway);
  if (!rows) throw notFound(NO_PARTICIPATION);
  return { ...flowStateOf(flow, rows, now), code: rows.code ?? null };
}

/** Whether `stepId` names a step of the participant's walk that their records show done (a repeat). */
function isRepeat(state: FlowState, stepId: string): boolean {
  const { records } = state.facts;
  if (records.completion !== null) {
    // Completed: only their pathway's end step repeats.
    return state.position.pathway !== null && state.flow.steps.some((s) => s.id === stepId && s.type === 'end');
  }
  const step = stepsFor(state.flow, records.condition).find((s) => s.id === stepId);
  return step !== undefined && step.id !== state.position.step?.id && stepDone(step, records);
}

const REFUSALS: readonly JourneyEventType[] = ['out_of_order'];

/**
 * Runs one write of a flow's step for a participant, in one transaction (see the file's head). Returns the
 * handler's result (undefined for a repeat) and the participant's state after the write, read inside it.
 */
export async function flowWrite<T>(
  deps: AppDeps,
  input: { userId: string; experimentId: string; stepId: string },
  apply: (ctx: FlowStepContext) => Promise<FlowStepOutcome<T>>,
): Promise<{ value: T | undefined; state: FlowState }> {
  const flow = await requireFlow(deps, input.experimentId);
  type Settled = { kind: 'done'; value: T | undefined; state: FlowState } | { kind: 'refused'; error: AppError };
  const settled = await deps.database.db.transaction().execute(async (trx): Promise<Settled | undefined> => {
    const rows = await lockJourneyFacts(trx, input.userId, input.experimentId);
    if (!rows) return undefined;
    const now = deps.clock();
    const state = flowStateOf(flow, rows, now.getTime());
    const log = async (event: StepEvent, step: string) => {
      if (REFUSALS.includes(event.type)) {
        const logged = await countParticipantEvents(trx, input.experimentId, input.userId, ['out_of_order']);
        if (logged >= MAX_LOGGED_REFUSALS) return;
      }
      await appendEvent(trx, {
        experimentId: input.experimentId,
        userId: input.userId,
        assignmentId: state.assignmentId,
        type: event.type,
        step,
        data: event.data,
        createdAt: now.toISOString(),
      });
    };
    if (isRepeat(state, input.stepId)) return { kind: 'done', value: undefined, state };
    const step = state.position.step;
    if (!step || step.id !== input.stepId) {
      const at = step?.id ?? 'completed';
      await log({ type: 'out_of_order', data: { attempted: input.stepId } }, at);
      return {
        kind: 'refused',
        error: new AppError(
          409,
          'STEP_OUT_OF_ORDER',
          `That is not the next step of the study: you are at "${at}".`,
          undefined,
          {
            flowStep: at,
          },
        ),
      };
    }
    const outcome = await apply({ trx, state, step, now, log: (event) => log(event, step.id) });
    if (outcome.event) await log(outcome.event, step.id);
    if ('refusal' in outcome) return { kind: 'refused', error: outcome.refusal };
    const after = await readJourneyFacts(trx, input.userId, input.experimentId);
    if (!after) throw new Error("the participant's assignment disappeared inside their write");
    return { kind: 'done', value: outcome.result, state: flowStateOf(flow, after, now.getTime()) };
  });
  if (!settled) throw notFound(NO_PARTICIPATION);
  if (settled.kind === 'refused') throw settled.error;
  return { value: settled.value, state: settled.state };
}

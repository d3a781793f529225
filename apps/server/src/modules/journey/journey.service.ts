import type { Transaction } from 'kysely';
import {
  PATHWAY_STEP,
  type Journey,
  type JourneyEventType,
  type Pathway,
  type StudyDefinition,
} from '@studychat/contracts';
import type { DB } from '../../db/schema.js';
import type { AppDeps } from '../../lib/deps.js';
import { AppError, notFound } from '../../lib/errors.js';
import { NO_PARTICIPATION } from '../journey/journey-errors.js';
import { appendEvent, countParticipantEvents } from './journey-events.repository.js';
import { lockJourneyFacts, readJourneyFacts } from './journey-facts.repository.js';
import { readJourneyState, toFacts, toState, type JourneyState } from './journey-records.js';
import { isWriteAllowed, isWriteDone, whereYouAre, writeStep, type JourneyWrite } from './journey-steps.js';
import { toJourney } from './journey.mapper.js';

// The journey's gate: every participant write that moves the journey goes through `journeyWrite`, which runs
// it in one transaction with the participant's row locked, accepts it only at its step, and logs it.

export interface StepContext {
  trx: Transaction<DB>;
  state: JourneyState;
  study: StudyDefinition;
  now: Date;
  /** Appends another event of this write, in its transaction (one request that makes two records). */
  log(event: StepEvent): Promise<void>;
}

/** What a write logs: the event's type and a small data object. */
export interface StepEvent {
  type: JourneyEventType;
  data?: Record<string, unknown>;
}

/** A write's result with its event, or a refusal at the right step (e.g. too early) that is logged too. */
export type StepOutcome<T> = { result: T; event: StepEvent } | { refusal: AppError; event: StepEvent };

export interface StepHandlers<T> {
  /** The first result of a write already made: an idempotent repeat returns it and changes nothing. */
  repeat(ctx: StepContext): Promise<T>;
  /** The write itself, at its step: store it and say what to log. */
  apply(ctx: StepContext): Promise<StepOutcome<T>>;
}

export interface JourneyWriteInput {
  userId: string;
  experimentId: string;
  write: JourneyWrite;
  /**
   * The error when the participant has not joined (404 NO_PARTICIPATION when not given): a route that answers
   * an unknown experiment with its own 404 checks for it here, only when there is no assignment, rather than
   * reading the experiment before every write.
   */
  notJoined?: () => Promise<AppError>;
}

function describeWrite(write: JourneyWrite): Record<string, unknown> {
  if (write.kind === 'section_open' || write.kind === 'section_finish') {
    return { attempted: write.kind, sectionIndex: write.index };
  }
  if (write.kind === 'completion') return { attempted: write.kind, pathway: write.pathway };
  return { attempted: write.kind };
}

/** 409 STEP_OUT_OF_ORDER naming where the participant is; the reply carries the step too. */
export function stepOutOfOrder(state: JourneyState): AppError {
  const where = whereYouAre(state.position, state.sections.length);
  return new AppError(409, 'STEP_OUT_OF_ORDER', `That is not the next step of the study: ${where}.`, undefined, {
    step: state.position.step,
  });
}

/** Events that record a refused write: a participant can send these at will, so only the first few are kept. */
const REFUSAL_EVENTS = ['out_of_order', 'section_too_early'] as const satisfies readonly JourneyEventType[];
/**
 * Refusal events logged per participant and experiment; later refusals are still refused (409) but not logged,
 * so a script hammering the API cannot grow the event log without bound (a real participant makes a handful).
 */
export const MAX_LOGGED_REFUSALS = 50;

type Settled<T> =
  { kind: 'done'; value: T; journey?: Journey } | { kind: 'refused'; error: AppError } | { kind: 'absent' };

async function runWrite<T>(
  deps: AppDeps,
  input: JourneyWriteInput,
  handlers: StepHandlers<T>,
  journeyAfter: (value: T) => boolean,
): Promise<{ value: T; journey?: Journey }> {
  const study = await deps.studies(input.experimentId);
  const settled = await deps.database.db.transaction().execute(async (trx): Promise<Settled<T>> => {
    const rows = await lockJourneyFacts(trx, input.userId, input.experimentId);
    if (!rows) return { kind: 'absent' };
    const { assignment } = rows;
    const now = deps.clock();
    const state = toState(toFacts(rows, study), study);
    const log = async (type: JourneyEventType, step: Journey['step'], data?: Record<string, unknown>) => {
      if ((REFUSAL_EVENTS as readonly JourneyEventType[]).includes(type)) {
        const logged = await countParticipantEvents(trx, input.experimentId, input.userId, REFUSAL_EVENTS);
        if (logged >= MAX_LOGGED_REFUSALS) return;
      }
      await appendEvent(trx, {
        experimentId: input.experimentId,
        userId: input.userId,
        assignmentId: assignment.id,
        type,
        step,
        data,
        createdAt: now.toISOString(),
      });
    };
    const step = writeStep(input.write);
    const ctx: StepContext = { trx, state, study, now, log: (e) => log(e.type, step, e.data) };
    // The journey after the write, read in its transaction (it sees the write): the reply of a write that
    // leads to the next page carries it (docs/decisions/0068), so that page's guard need not ask again.
    const done = async (value: T): Promise<Settled<T>> => {
      if (!journeyAfter(value)) return { kind: 'done', value };
      const after = await readJourneyFacts(trx, input.userId, input.experimentId);
      if (!after) throw new Error("the participant's assignment disappeared inside their write");
      return { kind: 'done', value, journey: toJourney(toState(toFacts(after, study), study), now) };
    };

    if (isWriteDone(input.write, state.records)) return done(await handlers.repeat(ctx));
    if (!isWriteAllowed(input.write, state.records, state.position)) {
      await log('out_of_order', state.position.step, describeWrite(input.write));
      return { kind: 'refused', error: stepOutOfOrder(state) };
    }
    const outcome = await handlers.apply(ctx);
    await ctx.log(outcome.event);
    if ('refusal' in outcome) return { kind: 'refused', error: outcome.refusal };
    return done(outcome.result);
  });
  // Thrown after the commit, so the refusal's event is kept while nothing else was written.
  if (settled.kind === 'absent') throw input.notJoined ? await input.notJoined() : notFound(NO_PARTICIPATION);
  if (settled.kind === 'refused') throw settled.error;
  return settled;
}

/**
 * Runs one journey write for a participant (docs/decisions/0009), in one transaction:
 * - a write the records already hold is an idempotent repeat: `repeat` returns the first result;
 * - a write at the participant's current step is applied and its event appended;
 * - any other write is refused with 409 STEP_OUT_OF_ORDER, and an `out_of_order` event is the only row written
 *   (the first MAX_LOGGED_REFUSALS refusals per participant; later ones are refused without a row).
 * 404 when the participant has not joined the experiment (`input.notJoined` may say more).
 */
export async function journeyWrite<T>(deps: AppDeps, input: JourneyWriteInput, handlers: StepHandlers<T>): Promise<T> {
  return (await runWrite(deps, input, handlers, () => false)).value;
}

/** `journeyWrite`, also returning the participant's journey after the write (read inside its transaction). */
export async function journeyWriteThen<T>(
  deps: AppDeps,
  input: JourneyWriteInput,
  handlers: StepHandlers<T>,
): Promise<{ value: T; journey: Journey }> {
  const { value, journey } = await runWrite(deps, input, handlers, () => true);
  if (!journey) throw new Error('the journey after the write was not read');
  return { value, journey };
}

/** `journeyWrite`, also returning the journey after the write when `when` says its result needs it. */
export function journeyWriteThenIf<T>(
  deps: AppDeps,
  input: JourneyWriteInput,
  handlers: StepHandlers<T>,
  when: (value: T) => boolean,
): Promise<{ value: T; journey?: Journey }> {
  return runWrite(deps, input, handlers, when);
}

/** The participant's journey in one experiment, for the browser (404 before they have joined). */
export async function getJourney(deps: AppDeps, userId: string, experimentId: string): Promise<Journey> {
  const study = await deps.studies(experimentId);
  const state = await readJourneyState(deps.database.db, study, userId, experimentId);
  if (!state) throw notFound(NO_PARTICIPATION);
  return toJourney(state, deps.clock());
}

const NOT_EARNED: Record<Pathway, string> = {
  confirm: 'This completion code is only available to participants who said they have no concerns.',
  ceiling: 'This completion code is only available to participants who answered the intention question with 7.',
  complete: 'This completion code is only available after finishing the study, including the last survey.',
};

/** 403 PATHWAY_NOT_EARNED, in the pathway's own words. */
export function pathwayNotEarned(pathway: Pathway): AppError {
  return new AppError(403, 'PATHWAY_NOT_EARNED', NOT_EARNED[pathway]);
}

/**
 * The experiment's completion code for a pathway, read with the participant's facts in one statement, and
 * given only when their records earn the pathway: completion recorded with it, or its completion step reached
 * (`complete` therefore needs every section read in time on the server's clock, the chat complete by the
 * server's count, then the post-survey). 403 PATHWAY_NOT_EARNED otherwise; undefined before they joined.
 * `code` is null when none is configured.
 */
export async function earnedCode(
  deps: AppDeps,
  userId: string,
  experimentId: string,
  pathway: Pathway,
): Promise<{ code: string | null } | undefined> {
  const study = await deps.studies(experimentId);
  const rows = await readJourneyFacts(deps.database.db, userId, experimentId, pathway);
  if (!rows) return undefined;
  const state = toState(toFacts(rows, study), study);
  const earned = state.records.completion === pathway || state.position.step === PATHWAY_STEP[pathway];
  if (!earned) throw pathwayNotEarned(pathway);
  return { code: rows.code ?? null };
}

// A study written as a flow (issue 30) has its own gate beside this one.
export {
  flowWrite,
  readFlowState,
  requireFlow,
  type FlowState,
  type FlowStepContext,
  type FlowStepOutcome,
} from './flow-gate.js';
export { chatStepOf } from './flow-records.js';
export { flowStateOf } from './flow-gate.js';

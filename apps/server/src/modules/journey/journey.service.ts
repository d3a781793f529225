import type { CompiledQuery, Kysely } from 'kysely';
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
import type { SessionCheck } from '../auth/session-check.js';
import { NO_PARTICIPATION } from '../participants/access.js';
import {
  appendEvent,
  countParticipantEvents,
  participantEventInsert,
  writeWithEvent,
  type ParticipantEvent,
} from './journey-events.repository.js';
import { withChanges, type FactChange, type JourneyAfter } from './journey-after.js';
import { lockJourneyFacts, readJourneyFacts, type JourneyFactRows } from './journey-facts.repository.js';
import { readJourneyState, toFacts, toState, type JourneyState } from './journey-records.js';
import { isWriteAllowed, isWriteDone, whereYouAre, writeStep, type JourneyWrite } from './journey-steps.js';
import { toJourney } from './journey.mapper.js';

// The journey's gate: every participant write that moves the journey goes through `journeyWrite`, which runs
// it in one transaction with the participant's row locked, accepts it only at its step, and logs it.

export interface StepContext {
  trx: Kysely<DB>;
  state: JourneyState;
  study: StudyDefinition;
  now: Date;
  /**
   * Runs the step's write (a statement with RETURNING, its last) with the step's event, one statement on
   * PostgreSQL (journey-events.repository.ts `writeWithEvent`); returns the write's rows. A handler that uses
   * it returns `{ result, eventWritten: true }`; one that finds no row must throw (the transaction rolls back).
   * A write may call it more than once when one request makes two records (finishing a section opens the next).
   */
  writeWithEvent<R>(write: CompiledQuery<R>, event: StepEvent): Promise<R[]>;
  /**
   * Says what the write changed in the participant's facts (a row as the facts read would return it). A write
   * whose reply may carry the journey says it (the gate refuses one that does not): the journey after the write
   * is the facts read under the lock with these changes (docs/decisions/0070).
   */
  changed(change: FactChange): void;
}

/** What a write logs: the event's type and a small data object. */
export interface StepEvent {
  type: JourneyEventType;
  data?: Record<string, unknown>;
}

/**
 * A write's result with its event (or with its event already written by `ctx.writeWithEvent`), or a refusal at
 * the right step (e.g. too early) that is logged too.
 */
export type StepOutcome<T> =
  { result: T; event: StepEvent } | { result: T; eventWritten: true } | { refusal: AppError; event: StepEvent };

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
  /** The caller's session check, when still pending: settled by the facts read, before anything is written. */
  session?: SessionCheck;
  /**
   * The error when the participant has not joined (404 NO_PARTICIPATION when not given): a route that answers
   * an unknown experiment with its own 404 checks for it here, only when there is no assignment, rather than
   * reading the experiment before every write.
   */
  notJoined?: () => Promise<AppError>;
  /** Set when the reply carries the journey after the write (docs/decisions/0068, 0070). */
  after?: JourneyAfter;
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
  { kind: 'done'; value: T; facts: JourneyFactRows } | { kind: 'refused'; error: AppError } | { kind: 'absent' };

/**
 * Runs one journey write for a participant (docs/decisions/0009), in one transaction:
 * - a write the records already hold is an idempotent repeat: `repeat` returns the first result;
 * - a write at the participant's current step is applied and its event appended;
 * - any other write is refused with 409 STEP_OUT_OF_ORDER, and an `out_of_order` event is the only row written
 *   (the first MAX_LOGGED_REFUSALS refusals per participant; later ones are refused without a row).
 * 404 when the participant has not joined the experiment (`input.notJoined` may say more).
 */
export async function journeyWrite<T>(deps: AppDeps, input: JourneyWriteInput, handlers: StepHandlers<T>): Promise<T> {
  const study = await deps.studies(input.experimentId);
  const settled = await deps.database.db.transaction().execute(async (trx): Promise<Settled<T>> => {
    const rows = await lockJourneyFacts(trx, input.userId, input.experimentId, input.session?.probe ?? null);
    if (!rows) return { kind: 'absent' };
    input.session?.settle(rows.session);
    const { assignment } = rows;
    const now = deps.clock();
    const state = toState(toFacts(rows, study), study);
    const event = (type: JourneyEventType, step: Journey['step'], data?: Record<string, unknown>) => ({
      experimentId: input.experimentId,
      userId: input.userId,
      assignmentId: assignment.id,
      type,
      step,
      data,
      createdAt: now.toISOString(),
    });
    let eventWritten = false;
    const changes: FactChange[] = [];
    const ctx: StepContext = {
      trx,
      state,
      study,
      now,
      writeWithEvent: (write, e) => {
        eventWritten = true;
        return writeWithEvent(trx, write, event(e.type, writeStep(input.write), e.data));
      },
      changed: (change) => void changes.push(change),
    };
    // The changes are copied at the end of the transaction: the journey is made later, only if asked for.
    const done = (value: T): Settled<T> => ({
      kind: 'done',
      value,
      facts: input.after ? withChanges(rows, changes) : rows,
    });
    const log = async (type: JourneyEventType, step: Journey['step'], data?: Record<string, unknown>) => {
      if ((REFUSAL_EVENTS as readonly JourneyEventType[]).includes(type)) {
        const logged = await countParticipantEvents(trx, input.experimentId, input.userId, REFUSAL_EVENTS);
        if (logged >= MAX_LOGGED_REFUSALS) return;
      }
      await appendEvent(trx, event(type, step, data));
    };

    if (isWriteDone(input.write, state.records)) return done(await handlers.repeat(ctx));
    if (!isWriteAllowed(input.write, state.records, state.position)) {
      await log('out_of_order', state.position.step, describeWrite(input.write));
      return { kind: 'refused', error: stepOutOfOrder(state) };
    }
    const outcome = await handlers.apply(ctx);
    if ('eventWritten' in outcome) {
      if (!eventWritten) throw new Error('the step said its event was written, but it was not');
    } else {
      if (eventWritten) throw new Error('the step wrote its event and returned another');
      await log(outcome.event.type, writeStep(input.write), outcome.event.data);
      if ('refusal' in outcome) return { kind: 'refused', error: outcome.refusal };
    }
    // A write that changed nothing it says would hand over a journey from before it.
    if (input.after && changes.length === 0) throw new Error('the step did not say what it changed');
    return done(outcome.result);
  });
  // Thrown after the commit, so the refusal's event is kept while nothing else was written.
  if (settled.kind === 'absent') throw input.notJoined ? await input.notJoined() : notFound(NO_PARTICIPATION);
  if (settled.kind === 'refused') throw settled.error;
  const { facts } = settled;
  input.after?.set(() => toJourney(toState(toFacts(facts, study), study), deps.clock()));
  return settled.value;
}

/** The participant's journey in one experiment, for the browser (404 before they have joined). */
export async function getJourney(
  deps: AppDeps,
  userId: string,
  experimentId: string,
  session?: SessionCheck,
): Promise<Journey> {
  const study = await deps.studies(experimentId);
  const state = await readJourneyState(deps.database.db, study, userId, experimentId, session);
  if (!state) throw notFound(NO_PARTICIPATION);
  return toJourney(state, deps.clock());
}

/**
 * A write's reply with the journey after it (docs/decisions/0068): read once the write has committed, so it is
 * exactly what the journey read would answer, and the next page's guard need not ask again.
 */
export async function withJourney<T extends object>(
  deps: AppDeps,
  userId: string,
  experimentId: string,
  value: T,
): Promise<T & { journey: Journey }> {
  return { ...value, journey: await getJourney(deps, userId, experimentId) };
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
 * server's count, then the post-survey). 403 PATHWAY_NOT_EARNED otherwise; undefined before they joined. A
 * pending session check is settled by the same read. `code` is null when none is configured.
 */
export async function earnedCode(
  deps: AppDeps,
  userId: string,
  experimentId: string,
  pathway: Pathway,
  session?: SessionCheck,
): Promise<{ code: string | null } | undefined> {
  const study = await deps.studies(experimentId);
  const rows = await readJourneyFacts(deps.database.db, userId, experimentId, session?.probe ?? null, pathway);
  if (!rows) return undefined;
  session?.settle(rows.session);
  const state = toState(toFacts(rows, study), study);
  const earned = state.records.completion === pathway || state.position.step === PATHWAY_STEP[pathway];
  if (!earned) throw pathwayNotEarned(pathway);
  return { code: rows.code ?? null };
}

/** What the chat step's end logs: `chat_complete` for the participant's assignment, with the rounds, points or reason. */
export function chatCompleteEvent(input: {
  userId: string;
  experimentId: string;
  data: Record<string, unknown>;
  now: Date;
}): ParticipantEvent {
  return {
    experimentId: input.experimentId,
    userId: input.userId,
    type: 'chat_complete',
    step: 'chat',
    data: input.data,
    createdAt: input.now.toISOString(),
  };
}

/**
 * Logs that the chat step is done (complete by the server's count, or ended by a limit), in the transaction
 * that made it so: one statement (the insert finds the assignment). The chat module logs it once per thread.
 */
export async function logChatComplete(trx: Kysely<DB>, input: Parameters<typeof chatCompleteEvent>[0]): Promise<void> {
  await trx.executeQuery(participantEventInsert(trx, chatCompleteEvent(input)));
}

/**
 * Logs a repeat survey submission whose answers differ from the stored ones (the first answers stay): the
 * questions that differ, with the first and the attempted value of each.
 */
export async function logAnswerChangeRefused(
  ctx: StepContext,
  input: { surveyType: string; first: Record<string, unknown>; attempted: Record<string, unknown> },
): Promise<void> {
  const { assignment } = ctx.state.facts;
  const changed = [...new Set([...Object.keys(input.first), ...Object.keys(input.attempted)])].filter(
    (key) => JSON.stringify(input.first[key]) !== JSON.stringify(input.attempted[key]),
  );
  if (changed.length === 0) return;
  await appendEvent(ctx.trx, {
    experimentId: assignment.experiment_id,
    userId: assignment.user_id,
    assignmentId: assignment.id,
    type: 'answer_change_refused',
    step: ctx.state.position.step,
    data: {
      surveyType: input.surveyType,
      first: Object.fromEntries(changed.map((key) => [key, input.first[key] ?? null])),
      attempted: Object.fromEntries(changed.map((key) => [key, input.attempted[key] ?? null])),
    },
    createdAt: ctx.now.toISOString(),
  });
}

/** Logs that a participant joined an experiment, in the transaction that created their assignment. */
export async function logJoined(
  trx: Kysely<DB>,
  input: { userId: string; experimentId: string; assignmentId: string; now: Date },
): Promise<void> {
  await appendEvent(trx, {
    experimentId: input.experimentId,
    userId: input.userId,
    assignmentId: input.assignmentId,
    type: 'joined',
    step: 'consent',
    createdAt: input.now.toISOString(),
  });
}

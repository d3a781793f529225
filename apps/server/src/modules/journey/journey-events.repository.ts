import type { CompiledQuery, Kysely } from 'kysely';
import type { JourneyEventType, JourneyStepName } from '@studychat/contracts';
import type { DB, JourneyEventRow } from '../../db/schema.js';

/** One row of the append-only event log, as written. */
export interface NewJourneyEvent {
  experimentId: string;
  userId: string;
  assignmentId: string | null;
  type: JourneyEventType;
  /** The journey step the event concerns. */
  step: JourneyStepName;
  /** A small JSON object (ids, answers that route the journey, seconds); never free text a participant wrote. */
  data?: Record<string, unknown> | undefined;
  createdAt: string;
}

function dataText(data: Record<string, unknown> | undefined): string | null {
  return data === undefined ? null : JSON.stringify(data);
}

/**
 * Appends one event. Call it with the transaction of the step's own write, so the log and the records
 * cannot disagree. The database assigns `seq`, increasing with every row.
 */
export async function appendEvent(db: Kysely<DB>, event: NewJourneyEvent): Promise<void> {
  await db
    .insertInto('journey_events')
    .values({
      experiment_id: event.experimentId,
      user_id: event.userId,
      assignment_id: event.assignmentId,
      type: event.type,
      step: event.step,
      data: dataText(event.data),
      created_at: event.createdAt,
    })
    .execute();
}

/** An event whose assignment the insert finds itself: the participant's in the experiment (null before they joined). */
export type ParticipantEvent = Omit<NewJourneyEvent, 'assignmentId'>;

/** Appends a `ParticipantEvent`, its assignment read by a subquery of the insert. */
export async function appendParticipantEvent(db: Kysely<DB>, event: ParticipantEvent): Promise<void> {
  await db.executeQuery(participantEventInsert(db, event));
}

/** The insert of a `ParticipantEvent`, to run with other writes (db/atomic-writes.ts). */
export function participantEventInsert(db: Kysely<DB>, event: ParticipantEvent): CompiledQuery {
  return db
    .insertInto('journey_events')
    .values((eb) => ({
      experiment_id: event.experimentId,
      user_id: event.userId,
      assignment_id: eb
        .selectFrom('assignments')
        .select('id')
        .where('user_id', '=', event.userId)
        .where('experiment_id', '=', event.experimentId),
      type: event.type,
      step: event.step,
      data: dataText(event.data),
      created_at: event.createdAt,
    }))
    .compile();
}

/** How many events of the given types one participant has in an experiment. */
export async function countParticipantEvents(
  db: Kysely<DB>,
  experimentId: string,
  userId: string,
  types: readonly JourneyEventType[],
): Promise<number> {
  const row = await db
    .selectFrom('journey_events')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('experiment_id', '=', experimentId)
    .where('user_id', '=', userId)
    .where('type', 'in', types)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** An experiment's events after position `afterSeq`, oldest first (what a live monitor or an export pages through). */
export function listEventsAfter(
  db: Kysely<DB>,
  experimentId: string,
  afterSeq: number,
  limit: number,
): Promise<JourneyEventRow[]> {
  return db
    .selectFrom('journey_events')
    .selectAll()
    .where('experiment_id', '=', experimentId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/** One participant's events in an experiment, oldest first. */
export function listParticipantEvents(
  db: Kysely<DB>,
  experimentId: string,
  userId: string,
): Promise<JourneyEventRow[]> {
  return db
    .selectFrom('journey_events')
    .selectAll()
    .where('experiment_id', '=', experimentId)
    .where('user_id', '=', userId)
    .orderBy('seq')
    .execute();
}

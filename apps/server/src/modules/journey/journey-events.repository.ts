import type { Kysely } from 'kysely';
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
      data: event.data === undefined ? null : JSON.stringify(event.data),
      created_at: event.createdAt,
    })
    .execute();
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

import { PostgresAdapter, type CompiledQuery, type Kysely } from 'kysely';
import type { JourneyEventType, JourneyStepName } from '@studychat/contracts';
import { compiledOnce } from '../../db/compiled-once.js';
import { asOneStatement } from '../../db/one-statement.js';
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

function eventValues(event: NewJourneyEvent): unknown[] {
  return [
    event.experimentId,
    event.userId,
    event.assignmentId,
    event.type,
    event.step,
    event.data === undefined ? null : JSON.stringify(event.data),
    event.createdAt,
  ];
}

/** The event's insert, built once per dialect (db/compiled-once.ts). */
function eventInsert(db: Kysely<DB>, event: NewJourneyEvent): CompiledQuery {
  return compiledOnce(
    db,
    'journeyEvent',
    (experimentId, userId, assignmentId, type, step, data, createdAt) =>
      db
        .insertInto('journey_events')
        .values({
          experiment_id: experimentId,
          user_id: userId,
          assignment_id: assignmentId,
          type,
          step,
          data,
          created_at: createdAt,
        })
        .compile(),
    eventValues(event),
  );
}

/** An event whose assignment the insert finds itself: the participant's in the experiment (null before they joined). */
export type ParticipantEvent = Omit<NewJourneyEvent, 'assignmentId'>;

/** The insert of a `ParticipantEvent`, its assignment read by a subquery: one statement. Built once per dialect. */
export function participantEventInsert(db: Kysely<DB>, event: ParticipantEvent): CompiledQuery {
  return compiledOnce(
    db,
    'journeyEventOfParticipant',
    (experimentId, userId, ofUser, inExperiment, type, step, data, createdAt) =>
      db
        .insertInto('journey_events')
        .values((eb) => ({
          experiment_id: experimentId,
          user_id: userId,
          assignment_id: eb
            .selectFrom('assignments')
            .select('id')
            .where('user_id', '=', ofUser)
            .where('experiment_id', '=', inExperiment),
          type,
          step,
          data,
          created_at: createdAt,
        }))
        .compile(),
    [
      event.experimentId,
      event.userId,
      event.userId,
      event.experimentId,
      event.type,
      event.step,
      event.data === undefined ? null : JSON.stringify(event.data),
      event.createdAt,
    ],
  );
}

/**
 * Appends one event. Call it with the transaction of the step's own write, so the log and the records
 * cannot disagree. The database assigns `seq`, increasing with every row.
 */
export async function appendEvent(db: Kysely<DB>, event: NewJourneyEvent): Promise<void> {
  await db.executeQuery(eventInsert(db, event));
}

/**
 * Runs a write (a statement with RETURNING) and appends its event, in the caller's transaction; returns the
 * write's rows. On PostgreSQL the two are one statement (docs/decisions/0064): the write in a data-modifying
 * CTE, which runs to completion whether or not it is read, beside the event's insert. On SQLite, the write
 * then the event. The event is appended whatever the write returned: a caller that finds no row must throw,
 * so its transaction rolls both back.
 */
export async function writeWithEvent<R>(db: Kysely<DB>, write: CompiledQuery<R>, event: NewJourneyEvent): Promise<R[]> {
  const insert = eventInsert(db, event);
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    const { rows } = await db.executeQuery(write);
    await db.executeQuery(insert);
    return rows;
  }
  if (!/\breturning\b/i.test(write.sql)) throw new Error('writeWithEvent: the write must have RETURNING');
  const { rows } = await db.executeQuery(asOneStatement<R>([write, insert], 'select * from w0'));
  return rows;
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

import type { CompiledQuery, Kysely, Transaction } from 'kysely';
import { lockForKeyShare } from '../../db/dialect.js';
import type { JourneyEventType, JourneyStepName } from '@studychat/contracts';
import type { DB, JourneyEventRow } from '../../db/schema.js';

/** One row of the append-only event log, as written. */
export interface NewJourneyEvent {
  experimentId: string;
  userId: string;
  assignmentId: string | null;
  type: JourneyEventType;
  /** The journey step the event concerns (a JourneyStepName), or a flow's step id (issue 30). */
  step: JourneyStepName | (string & {});
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

/** An event whose assignment the insert finds itself: the participant's in the experiment. */
export type ParticipantEvent = Omit<NewJourneyEvent, 'assignmentId'>;

/** Appends a `ParticipantEvent` while the participant has an assignment (see `participantEventInsert`). */
export async function appendParticipantEvent(db: Kysely<DB>, event: ParticipantEvent): Promise<void> {
  await db.executeQuery(participantEventInsert(db, event));
}

/**
 * The insert of a `ParticipantEvent`, to run with other writes (db/atomic-writes.ts). It reads the assignment
 * itself and inserts nothing when the participant has none (withdrawn meanwhile); take `holdParticipant` first
 * in the same transaction, so that a withdrawal cannot delete it before the commit (docs/decisions/0074).
 */
export function participantEventInsert(db: Kysely<DB>, event: ParticipantEvent): CompiledQuery {
  return db
    .insertInto('journey_events')
    .columns(['experiment_id', 'user_id', 'assignment_id', 'type', 'step', 'data', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('assignments as a')
        .select([
          eb.val(event.experimentId).as('experiment_id'),
          eb.val(event.userId).as('user_id'),
          'a.id as assignment_id',
          eb.val(event.type).as('type'),
          eb.val(event.step).as('step'),
          eb.val(dataText(event.data)).as('data'),
          eb.val(event.createdAt).as('created_at'),
        ])
        .where('a.user_id', '=', event.userId)
        .where('a.experiment_id', '=', event.experimentId),
    )
    .compile();
}

/**
 * Holds the participant's assignment until the transaction ends (db/dialect.ts `lockForKeyShare`), for a write
 * that appends their events outside the journey gate (the gate locks the row itself). A withdrawal locks it
 * before it deletes anything: it waits for this transaction, or this one waits for it and then finds no
 * assignment, so no event of a withdrawn participant is left behind (docs/decisions/0074-hardening.md). Take it
 * before any other row of the participant, as the withdrawal does, so the two cannot wait for each other.
 */
export async function holdParticipant(trx: Transaction<DB>, userId: string, experimentId: string): Promise<void> {
  await lockForKeyShare(
    trx,
    trx.selectFrom('assignments').select('id').where('user_id', '=', userId).where('experiment_id', '=', experimentId),
  );
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

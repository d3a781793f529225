import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

// Set-based reads for the monitor: each query covers the whole experiment once, whatever its size.

export function listMonitorBase(db: Kysely<DB>, experimentId: string) {
  return (
    db
      .selectFrom('assignments as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      // The submission status Prolific's webhooks reported (modules/prolific, docs/decisions/0083).
      .leftJoin('prolific_submissions as ps', 'ps.assignment_id', 'a.id')
      .where('a.experiment_id', '=', experimentId)
      .select([
        'a.id as assignment_id',
        'ps.status as prolific_status',
        'a.user_id',
        'u.email',
        'u.last_seen_at',
        'a.prolific_pid',
        'a.assigned_condition',
        'a.stratum',
        'a.consent_given',
        'a.consent_timestamp',
        'a.completion_pathway',
        'a.completed_at',
        'a.created_at',
        'a.is_test',
      ])
      .orderBy('a.created_at')
      .orderBy('a.id')
      .execute()
  );
}
export type MonitorBaseRow = Awaited<ReturnType<typeof listMonitorBase>>[number];

/** The survey answers that route the journey (entry, baseline) and which of pre and post exist. */
export function listMonitorSurveys(db: Kysely<DB>, experimentId: string) {
  return db
    .selectFrom('survey_responses')
    .where('experiment_id', '=', experimentId)
    .select(['user_id', 'survey_type', 'responses'])
    .execute();
}

export function listMonitorSectionViews(db: Kysely<DB>, experimentId: string) {
  return db
    .selectFrom('section_views')
    .where('experiment_id', '=', experimentId)
    .select(['user_id', 'section_index', 'min_seconds', 'opened_at', 'finished_at'])
    .execute();
}

/** Event types that do not move a participant (refused writes). */
const NOT_PROGRESS = ['out_of_order', 'section_too_early'];

/** Per participant: when their journey last moved, and whether the chat step was logged done. */
export function listEventTimes(db: Kysely<DB>, experimentId: string) {
  return db
    .selectFrom('journey_events')
    .where('experiment_id', '=', experimentId)
    .where('type', 'not in', NOT_PROGRESS)
    .select((eb) => [
      'user_id',
      eb.fn.max('created_at').as('last_at'),
      eb.fn.max(eb.case().when('type', '=', 'chat_complete').then(1).else(0).end()).as('chat_done'),
    ])
    .groupBy('user_id')
    .execute();
}

/** The experiment's latest position in the event log (0 when empty). */
export async function latestSeq(db: Kysely<DB>, experimentId: string): Promise<number> {
  const row = await db
    .selectFrom('journey_events')
    .where('experiment_id', '=', experimentId)
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}

/** Events after a position: how many, and the newest position (the stream's poll; one indexed range read). */
export async function eventsAfter(
  db: Kysely<DB>,
  experimentId: string,
  afterSeq: number,
): Promise<{ count: number; seq: number }> {
  const row = await db
    .selectFrom('journey_events')
    .where('experiment_id', '=', experimentId)
    .where('seq', '>', afterSeq)
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('seq').as('seq')])
    .executeTakeFirst();
  const count = Number(row?.n ?? 0);
  return { count, seq: count > 0 ? Number(row?.seq) : afterSeq };
}

/** Each participant's thread: tokens and cost so far, the condition it ran in, and the limit that ended it. */
export function listThreadUsage(db: Kysely<DB>, experimentId: string) {
  return db
    .selectFrom('chat_threads')
    .where('experiment_id', '=', experimentId)
    .select([
      'user_id',
      'condition',
      'tokens_used',
      'cost_usd',
      'cache_write_tokens',
      'cache_read_tokens',
      'closed_reason',
    ])
    .execute();
}

/** Messages each participant sent in the experiment's chat. */
export function listUserMessageCounts(db: Kysely<DB>, experimentId: string) {
  return db
    .selectFrom('chat_messages as m')
    .innerJoin('chat_threads as t', 't.id', 'm.thread_id')
    .where('t.experiment_id', '=', experimentId)
    .where('m.role', '=', 'user')
    .select((eb) => ['t.user_id', eb.fn.countAll().as('n')])
    .groupBy('t.user_id')
    .execute();
}

/** Study logins of the experiment that logged in but never joined it. */
export async function countLoggedInNotJoined(db: Kysely<DB>, experimentId: string): Promise<number> {
  const row = await db
    .selectFrom('study_logins as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .where('s.experiment_id', '=', experimentId)
    .where('u.last_login_at', 'is not', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('assignments as a')
            .select('a.id')
            .whereRef('a.user_id', '=', 's.user_id')
            .where('a.experiment_id', '=', experimentId),
        ),
      ),
    )
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function findMonitorSettings(db: Kysely<DB>, experimentId: string) {
  return db
    .selectFrom('experiments')
    .where('id', '=', experimentId)
    .select(['monitor_stale_minutes', 'target_sample_size', 'state'])
    .executeTakeFirst();
}

export async function updateMonitorSettings(
  db: Kysely<DB>,
  experimentId: string,
  changes: { monitor_stale_minutes?: number | null; target_sample_size?: number | null; updated_at: string },
): Promise<boolean> {
  const result = await db.updateTable('experiments').set(changes).where('id', '=', experimentId).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

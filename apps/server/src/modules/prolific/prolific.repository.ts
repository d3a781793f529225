import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

// The prolific module's queries. It owns the prolific_* tables; it reads `assignments` (a participant's
// Prolific ids, completion code) and `experiments` to match webhooks and to complete submissions, and writes
// neither (docs/ARCHITECTURE.md, "Each table has one owning module").

const SETTINGS_ID = 'default';

export function readSettings(db: Kysely<DB>) {
  return db.selectFrom('prolific_settings').selectAll().where('id', '=', SETTINGS_ID).executeTakeFirst();
}

export async function writeSettings(
  db: Kysely<DB>,
  input: { apiToken?: string | null; webhookSecret?: string | null; by: string; at: string },
): Promise<void> {
  const set = {
    ...(input.apiToken !== undefined ? { api_token: input.apiToken } : {}),
    ...(input.webhookSecret !== undefined ? { webhook_secret: input.webhookSecret } : {}),
    updated_by: input.by,
    updated_at: input.at,
  };
  await db
    .insertInto('prolific_settings')
    .values({ id: SETTINGS_ID, api_token: null, webhook_secret: null, ...set })
    .onConflict((oc) => oc.column('id').doUpdateSet(set))
    .execute();
}

export async function experimentExists(db: Kysely<DB>, experimentId: string): Promise<boolean> {
  const row = await db.selectFrom('experiments').select('id').where('id', '=', experimentId).executeTakeFirst();
  return row !== undefined;
}

export function readStudyLink(db: Kysely<DB>, experimentId: string) {
  return db
    .selectFrom('prolific_study_links')
    .select(['experiment_id', 'study_id'])
    .where('experiment_id', '=', experimentId)
    .executeTakeFirst();
}

export async function writeStudyLink(
  db: Kysely<DB>,
  input: { experimentId: string; studyId: string | null; at: string },
): Promise<void> {
  const studyId = input.studyId;
  if (studyId === null) {
    await db.deleteFrom('prolific_study_links').where('experiment_id', '=', input.experimentId).execute();
    return;
  }
  await db
    .insertInto('prolific_study_links')
    .values({ experiment_id: input.experimentId, study_id: studyId, updated_at: input.at })
    .onConflict((oc) => oc.column('experiment_id').doUpdateSet({ study_id: studyId, updated_at: input.at }))
    .execute();
}

/** Records an event id once; false when it was already recorded (a replay or a retried delivery). */
export async function claimWebhookEvent(
  db: Kysely<DB>,
  input: { eventId: string; eventType: string; outcome: string; at: string },
): Promise<boolean> {
  const result = await db
    .insertInto('prolific_webhook_events')
    .values({ event_id: input.eventId, event_type: input.eventType, outcome: input.outcome, received_at: input.at })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Assignments in experiments linked to a Prolific study that carry this Prolific participant id. */
export function linkedAssignmentsOfPid(db: Kysely<DB>, pid: string) {
  return db
    .selectFrom('assignments as a')
    .innerJoin('prolific_study_links as l', 'l.experiment_id', 'a.experiment_id')
    .select(['a.id', 'a.session_id', 'a.experiment_id', 'l.study_id'])
    .where('a.prolific_pid', '=', pid)
    .execute();
}

/** Stores a submission's status unless a later one is already stored. */
export async function storeSubmissionStatus(
  db: Kysely<DB>,
  input: { assignmentId: string; submissionId: string; status: string; statusAt: string; at: string },
): Promise<void> {
  await db
    .insertInto('prolific_submissions')
    .values({
      assignment_id: input.assignmentId,
      submission_id: input.submissionId,
      status: input.status,
      status_at: input.statusAt,
      updated_at: input.at,
    })
    .onConflict((oc) =>
      oc
        .column('assignment_id')
        .doUpdateSet({
          submission_id: input.submissionId,
          status: input.status,
          status_at: input.statusAt,
          updated_at: input.at,
        })
        .where('prolific_submissions.status_at', '<=', input.statusAt),
    )
    .execute();
}

export function submissionStatusOf(db: Kysely<DB>, assignmentId: string) {
  return db
    .selectFrom('prolific_submissions')
    .select(['status', 'submission_id'])
    .where('assignment_id', '=', assignmentId)
    .executeTakeFirst();
}

/** What the server-side completion needs: the participant's ids and code, and the linked study. */
export function completionFacts(db: Kysely<DB>, userId: string, experimentId: string) {
  return db
    .selectFrom('assignments as a')
    .innerJoin('prolific_study_links as l', 'l.experiment_id', 'a.experiment_id')
    .leftJoin('prolific_completions as c', 'c.assignment_id', 'a.id')
    .select([
      'a.id',
      'a.prolific_pid',
      'a.session_id',
      'a.completion_code',
      'a.completed_at',
      'a.is_test',
      'l.study_id',
      'c.state as completion_state',
    ])
    .where('a.user_id', '=', userId)
    .where('a.experiment_id', '=', experimentId)
    .executeTakeFirst();
}

export async function startCompletion(
  db: Kysely<DB>,
  input: { assignmentId: string; code: string; at: string },
): Promise<void> {
  await db
    .insertInto('prolific_completions')
    .values({
      assignment_id: input.assignmentId,
      code: input.code,
      state: 'pending',
      attempts: 0,
      updated_at: input.at,
    })
    .onConflict((oc) => oc.column('assignment_id').doNothing())
    .execute();
}

export async function recordCompletionAttempt(
  db: Kysely<DB>,
  input: { assignmentId: string; state: 'pending' | 'done' | 'failed'; error: string | null; at: string },
): Promise<void> {
  await db
    .updateTable('prolific_completions')
    .set((eb) => ({
      state: input.state,
      attempts: eb('attempts', '+', 1),
      last_error: input.error,
      updated_at: input.at,
    }))
    .where('assignment_id', '=', input.assignmentId)
    .execute();
}

export function completionOf(db: Kysely<DB>, assignmentId: string) {
  return db.selectFrom('prolific_completions').selectAll().where('assignment_id', '=', assignmentId).executeTakeFirst();
}

/** Completions left pending by a process that stopped mid-retry (not touched since `before`). */
export function stalePendingCompletions(db: Kysely<DB>, before: string, limit: number) {
  return db
    .selectFrom('prolific_completions as c')
    .innerJoin('assignments as a', 'a.id', 'c.assignment_id')
    .select(['c.assignment_id', 'c.updated_at', 'a.user_id', 'a.experiment_id'])
    .where('c.state', '=', 'pending')
    .where('c.updated_at', '<', before)
    .orderBy('c.updated_at')
    .limit(limit)
    .execute();
}

/** Takes a stale pending completion for this process: false when another process took it first. */
export async function claimPendingCompletion(
  db: Kysely<DB>,
  input: { assignmentId: string; seenAt: Date | string; at: string },
): Promise<boolean> {
  const result = await db
    .updateTable('prolific_completions')
    .set({ updated_at: input.at })
    .where('assignment_id', '=', input.assignmentId)
    .where('state', '=', 'pending')
    .where('updated_at', '=', input.seenAt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

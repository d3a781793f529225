import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

// Reading an experiment's submissions from Prolific page by page (docs/decisions/0090-prolific-launch.md): the
// experiment's participants with a Prolific id, the statuses stored, and the study logins freed by a returned or
// timed-out submission. Statuses are stored in the prolific module's own `prolific_submissions`.

/** Statuses that end a submission: a list read later that still says active or awaiting review is behind. */
const SETTLED = ['approved', 'rejected', 'returned', 'timed_out'];
const OPEN = ['active', 'awaiting_review'];

export function experimentAssignmentsWithPid(db: Kysely<DB>, experimentId: string) {
  return db
    .selectFrom('assignments')
    .select(['id', 'prolific_pid', 'session_id'])
    .where('experiment_id', '=', experimentId)
    .where('prolific_pid', 'is not', null)
    .execute();
}

/**
 * Stores a status read from Prolific's list at `statusAt` unless a later one is stored (a webhook sent after the
 * read), and never moves a settled submission back to active or awaiting review.
 */
export async function storeSyncedStatus(
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
    .onConflict((oc) => {
      const update = oc
        .column('assignment_id')
        .doUpdateSet({
          submission_id: input.submissionId,
          status: input.status,
          status_at: input.statusAt,
          updated_at: input.at,
        })
        .where('prolific_submissions.status_at', '<=', input.statusAt);
      return OPEN.includes(input.status) ? update.where('prolific_submissions.status', 'not in', SETTLED) : update;
    })
    .execute();
}

/** Stored statuses of the experiment's real participants (previews and pilots left out). */
export function statusCounts(db: Kysely<DB>, experimentId: string) {
  return db
    .selectFrom('prolific_submissions as s')
    .innerJoin('assignments as a', 'a.id', 's.assignment_id')
    .select(['s.status', (eb) => eb.fn.countAll<string | number>().as('n')])
    .where('a.experiment_id', '=', experimentId)
    .where('a.is_test', '=', false)
    .groupBy('s.status')
    .execute();
}

/** Study logins nobody used, and used ones whose submission was returned or timed out. */
export async function spareLogins(db: Kysely<DB>, experimentId: string): Promise<{ unused: number; freed: number }> {
  const rows = await db
    .selectFrom('study_logins as l')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .leftJoin('assignments as a', (join) =>
      join.onRef('a.user_id', '=', 'l.user_id').on('a.experiment_id', '=', experimentId),
    )
    .leftJoin('prolific_submissions as s', 's.assignment_id', 'a.id')
    .select(['a.id as assignment_id', 'u.last_login_at', 'u.disabled_at', 's.status'])
    .where('l.experiment_id', '=', experimentId)
    .execute();
  let unused = 0;
  let freed = 0;
  for (const row of rows) {
    if (row.disabled_at) continue;
    if (!row.assignment_id && !row.last_login_at) unused += 1;
    else if (row.status === 'returned' || row.status === 'timed_out') freed += 1;
  }
  return { unused, freed };
}

import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

// The link-only joining setting (prolific_link_join, this module's own) and the claim a PID holds in an
// experiment, read with its assignment's recorded SESSION_ID and its login (read only, never written here).

export function readLinkJoin(db: Kysely<DB>, experimentId: string) {
  return db
    .selectFrom('prolific_link_join')
    .select(['experiment_id', 'enabled'])
    .where('experiment_id', '=', experimentId)
    .executeTakeFirst();
}

export async function writeLinkJoin(
  db: Kysely<DB>,
  input: { experimentId: string; enabled: boolean; by: string; at: string },
): Promise<void> {
  const values = { enabled: input.enabled, updated_by: input.by, updated_at: input.at };
  await db
    .insertInto('prolific_link_join')
    .values({ experiment_id: input.experimentId, ...values })
    .onConflict((oc) => oc.column('experiment_id').doUpdateSet(values))
    .execute();
}

/** The assignment holding this PID in this experiment, with its recorded SESSION_ID and its login. */
export function claimOfPid(db: Kysely<DB>, experimentId: string, prolificPid: string) {
  return db
    .selectFrom('experiment_prolific_ids as c')
    .innerJoin('assignments as a', 'a.id', 'c.assignment_id')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select(['a.id as assignment_id', 'a.session_id', 'u.id as user_id', 'u.email', 'u.disabled_at'])
    .where('c.experiment_id', '=', experimentId)
    .where('c.prolific_pid', '=', prolificPid)
    .executeTakeFirst();
}

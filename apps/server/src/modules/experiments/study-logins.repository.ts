import type { Insertable, Kysely } from 'kysely';
import type { DB, StudyLoginsTable } from '../../db/schema.js';

// Study logins: which experiment each generated login belongs to (this module's table), read together with
// the login's account (last login) and its assignment in that experiment (joined, completed).

export async function insertStudyLogins(db: Kysely<DB>, rows: Insertable<StudyLoginsTable>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('study_logins').values(rows).execute();
}

/** Every login of an experiment with what it did there, oldest batch first. */
export function listStudyLoginRows(db: Kysely<DB>, experimentId: string) {
  return db
    .selectFrom('study_logins as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('assignments as a', (join) =>
      join.onRef('a.user_id', '=', 's.user_id').on('a.experiment_id', '=', experimentId),
    )
    .where('s.experiment_id', '=', experimentId)
    .select([
      'u.email',
      's.batch_id',
      's.created_at',
      'u.last_login_at',
      'u.disabled_at',
      'a.id as assignment_id',
      'a.prolific_pid',
      'a.completed_at',
    ])
    .orderBy('s.created_at')
    .orderBy('u.email')
    .execute();
}

export type StudyLoginRow = Awaited<ReturnType<typeof listStudyLoginRows>>[number];

import type { Kysely } from 'kysely';
import { forUpdate } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';

// An experiment's lifecycle (docs/decisions/0077): its state, read with its row locked, whether anyone joined it,
// and its deletion (its codes, study logins, preview links and slots go with it: their foreign keys cascade).

/** The experiment's state with its row locked until the transaction ends (PostgreSQL: FOR UPDATE); undefined: none. */
export async function lockExperimentState(db: Kysely<DB>, id: string): Promise<string | undefined> {
  const query = db.selectFrom('experiments').select('state').where('id', '=', id);
  const row = await forUpdate(db, query).executeTakeFirst();
  return row?.state;
}

/** Whether anyone (a test run included) joined the experiment or withdrew from it. */
export async function anyoneJoined(db: Kysely<DB>, experimentId: string): Promise<boolean> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .or([
          eb.exists(eb.selectFrom('assignments').select('id').where('experiment_id', '=', experimentId)),
          eb.exists(
            eb.selectFrom('withdrawn_prolific_ids').select('experiment_id').where('experiment_id', '=', experimentId),
          ),
        ])
        .as('joined'),
    ])
    .executeTakeFirst();
  return Boolean(row?.joined);
}

export async function setExperimentStateRow(db: Kysely<DB>, id: string, state: string, now: string): Promise<void> {
  await db.updateTable('experiments').set({ state, updated_at: now }).where('id', '=', id).execute();
}

/** The accounts of the experiment's study logins. */
export async function studyLoginUserIds(db: Kysely<DB>, experimentId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('study_logins')
    .select('user_id')
    .where('experiment_id', '=', experimentId)
    .execute();
  return rows.map((r) => r.user_id);
}

export async function deleteExperimentRow(db: Kysely<DB>, id: string): Promise<void> {
  await db.deleteFrom('experiments').where('id', '=', id).execute();
}

/** A study login of the experiment by its email, with the account's revocation; undefined when it is not one. */
export function findStudyLoginByEmail(
  db: Kysely<DB>,
  experimentId: string,
  email: string,
): Promise<{ user_id: string; email: string; disabled_at: Date | string | null } | undefined> {
  return db
    .selectFrom('study_logins as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.user_id', 'u.email', 'u.disabled_at'])
    .where('s.experiment_id', '=', experimentId)
    .where('u.email', '=', email.toLowerCase())
    .executeTakeFirst();
}

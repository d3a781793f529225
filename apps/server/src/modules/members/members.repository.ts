import type { Kysely, Transaction } from 'kysely';
import { lockForWrite } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';

// The `experiment_members` table (owned by this module) and the reads the access check needs.

export interface MemberRow {
  user_id: string;
  email: string;
  role: string;
  account_role: string;
  added_by: string | null;
  created_at: Date | string;
}

/** The experiment's owners and the caller's own row, in one statement: all the access check needs. */
export async function findAccessRows(
  db: Kysely<DB>,
  experimentId: string,
  userId: string,
): Promise<{ user_id: string; role: string }[]> {
  return db
    .selectFrom('experiment_members')
    .select(['user_id', 'role'])
    .where('experiment_id', '=', experimentId)
    .where((eb) => eb.or([eb('role', '=', 'owner'), eb('user_id', '=', userId)]))
    .execute();
}

/** The experiments with an owner (members-only) of which the user is not a member. */
export async function findHiddenExperimentIds(db: Kysely<DB>, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('experiment_members')
    .select('experiment_id')
    .distinct()
    .where('role', '=', 'owner')
    .where((eb) =>
      eb(
        'experiment_id',
        'not in',
        eb.selectFrom('experiment_members as mine').select('mine.experiment_id').where('mine.user_id', '=', userId),
      ),
    )
    .execute();
  return rows.map((r) => r.experiment_id);
}

export async function listMemberRows(db: Kysely<DB> | Transaction<DB>, experimentId: string): Promise<MemberRow[]> {
  return db
    .selectFrom('experiment_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'u.email', 'm.role', 'u.role as account_role', 'm.added_by', 'm.created_at'])
    .where('m.experiment_id', '=', experimentId)
    .orderBy('m.created_at')
    .orderBy('u.email')
    .execute();
}

/** Holds the experiment's row until the transaction ends, so two member changes cannot each leave no owner. */
export async function lockExperiment(trx: Transaction<DB>, experimentId: string): Promise<boolean> {
  await lockForWrite(trx, trx.selectFrom('experiments').select('id').where('id', '=', experimentId));
  const row = await trx.selectFrom('experiments').select('id').where('id', '=', experimentId).executeTakeFirst();
  return row !== undefined;
}

export async function experimentExists(db: Kysely<DB>, experimentId: string): Promise<boolean> {
  return (
    (await db.selectFrom('experiments').select('id').where('id', '=', experimentId).executeTakeFirst()) !== undefined
  );
}

/** A staff account (admin or analyst, not disabled) by email, compared without case. */
export async function findStaffByEmail(
  db: Kysely<DB> | Transaction<DB>,
  email: string,
): Promise<{ id: string; role: string } | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'role'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .where('role', 'in', ['admin', 'analyst'])
    .where('disabled_at', 'is', null)
    .executeTakeFirst();
}

export async function insertMember(
  trx: Kysely<DB> | Transaction<DB>,
  row: { experiment_id: string; user_id: string; role: string; added_by: string | null; created_at: string },
): Promise<void> {
  await trx.insertInto('experiment_members').values(row).execute();
}

export async function updateMemberRole(
  trx: Transaction<DB>,
  experimentId: string,
  userId: string,
  role: string,
): Promise<void> {
  await trx
    .updateTable('experiment_members')
    .set({ role })
    .where('experiment_id', '=', experimentId)
    .where('user_id', '=', userId)
    .execute();
}

export async function deleteMember(trx: Transaction<DB>, experimentId: string, userId: string): Promise<void> {
  await trx
    .deleteFrom('experiment_members')
    .where('experiment_id', '=', experimentId)
    .where('user_id', '=', userId)
    .execute();
}

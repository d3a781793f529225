import type { Kysely } from 'kysely';
import type { DB, NewUser, UserRow } from '../../db/schema.js';

export function findUserById(db: Kysely<DB>, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByEmail(db: Kysely<DB>, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export async function insertUser(db: Kysely<DB>, user: NewUser): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

export async function countUsers(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countAdmins(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('is_admin', '=', true)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function setLastLogin(db: Kysely<DB>, id: string, at: string): Promise<void> {
  await db.updateTable('users').set({ last_login_at: at }).where('id', '=', id).execute();
}

export async function setTotpSecret(db: Kysely<DB>, id: string, sealed: string | null, at: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ totp_secret: sealed, totp_enabled_at: null, totp_last_step: null, updated_at: at })
    .where('id', '=', id)
    .execute();
}

export async function enableTotp(db: Kysely<DB>, id: string, step: number, at: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ totp_enabled_at: at, totp_last_step: step, updated_at: at })
    .where('id', '=', id)
    .execute();
}

/** Records the step of an accepted code, only if no later one was accepted meanwhile: true when it won. */
export async function advanceTotpStep(db: Kysely<DB>, id: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

import type { Kysely, Transaction } from 'kysely';
import { lockForWrite } from '../../db/dialect.js';
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

/** Marks accounts revoked (docs/decisions/0077): they can no longer log in. Returns how many were newly revoked. */
export async function disableAccount(db: Kysely<DB>, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ disabled_at: at, updated_at: at })
    .where('id', '=', id)
    .where('disabled_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes accounts (a deleted draft experiment's study logins, which never joined anything). */
export async function deleteAccounts(db: Kysely<DB>, ids: readonly string[]): Promise<void> {
  if (ids.length > 0)
    await db
      .deleteFrom('users')
      .where('id', 'in', [...ids])
      .execute();
}

/** The admin area's people: admins and analysts, oldest first. */
const STAFF_COLUMNS = ['id', 'email', 'is_admin', 'role', 'totp_enabled_at', 'created_at', 'last_login_at'] as const;

export function listStaffRows(db: Kysely<DB>) {
  return db
    .selectFrom('users')
    .select(STAFF_COLUMNS)
    .where((eb) => eb.or([eb('is_admin', '=', true), eb('role', '=', 'analyst')]))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function findStaffRow(db: Kysely<DB>, id: string) {
  return db
    .selectFrom('users')
    .select(STAFF_COLUMNS)
    .where('id', '=', id)
    .where((eb) => eb.or([eb('is_admin', '=', true), eb('role', '=', 'analyst')]))
    .executeTakeFirst();
}

/** Holds every admin row until the transaction ends, so two changes cannot each leave the other as the last admin. */
export async function lockAdmins(trx: Transaction<DB>): Promise<void> {
  await lockForWrite(trx, trx.selectFrom('users').select('id').where('is_admin', '=', true));
}

export async function setStaffRole(db: Kysely<DB>, id: string, role: 'admin' | 'analyst', at: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ is_admin: role === 'admin', role, updated_at: at })
    .where('id', '=', id)
    .execute();
}

/** Deletes the account; its sessions, throttles and own rows go with it (foreign keys cascade). */
export async function deleteUser(db: Kysely<DB>, id: string): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}

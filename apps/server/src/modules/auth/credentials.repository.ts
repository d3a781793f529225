import type { CompiledQuery, Kysely } from 'kysely';
import type { DB, UserRow } from '../../db/schema.js';
import { toBool } from '../../db/values.js';

// The account's credentials and logins (the users table's password, two-factor and last-login columns): the auth
// module writes them; the users module creates accounts.

/** Records when the user last logged in; with `seen`, that they were last seen then too (a participant's login). */
export function lastLoginUpdate(db: Kysely<DB>, id: string, at: string, seen = false): CompiledQuery {
  return db
    .updateTable('users')
    .set(seen ? { last_login_at: at, last_seen_at: at } : { last_login_at: at })
    .where('id', '=', id)
    .compile();
}

export async function setLastLogin(db: Kysely<DB>, id: string, at: string): Promise<void> {
  await db.executeQuery(lastLoginUpdate(db, id, at));
}

/**
 * The account for a login by email, and whether `address` logged in to it since `knownSince` (the limiter's
 * known address, docs/decisions/0017): one statement.
 */
export async function findLoginAccount(
  db: Kysely<DB>,
  email: string,
  address: string,
  knownSince: Date,
): Promise<{ user: UserRow; knownAddress: boolean } | undefined> {
  const row = await db
    .selectFrom('users as u')
    .selectAll('u')
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('login_known_addresses as k')
            .select('k.user_id')
            .whereRef('k.user_id', '=', 'u.id')
            .where('k.address', '=', address)
            .where('k.last_login_at', '>', knownSince.toISOString()),
        )
        .as('known_address'),
    )
    .where('u.email', '=', email.toLowerCase())
    .executeTakeFirst();
  if (!row) return undefined;
  const { known_address, ...user } = row;
  return { user, knownAddress: toBool(known_address as boolean | number) };
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

import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** Failed logins are counted in the database (not process memory) so every server process agrees. */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_ADDRESS = 30;
export const MAX_FAILURES_PER_ACCOUNT = 10;

export const addressKey = (ip: string) => `ip:${ip}`;
export const accountKey = (email: string) => `account:${email.toLowerCase()}`;

async function failuresSince(db: Kysely<DB>, key: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('login_failures')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('key', '=', key)
    .where('failed_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** True when either the address or the account has too many recent failures. */
export async function isLimited(db: Kysely<DB>, ip: string, email: string, now: Date): Promise<boolean> {
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS).toISOString();
  const [byAddress, byAccount] = await Promise.all([
    failuresSince(db, addressKey(ip), since),
    failuresSince(db, accountKey(email), since),
  ]);
  return byAddress >= MAX_FAILURES_PER_ADDRESS || byAccount >= MAX_FAILURES_PER_ACCOUNT;
}

export async function recordFailure(
  db: Kysely<DB>,
  newId: () => string,
  ip: string,
  email: string,
  now: Date,
): Promise<void> {
  const at = now.toISOString();
  await db
    .insertInto('login_failures')
    .values([
      { id: newId(), key: addressKey(ip), failed_at: at },
      { id: newId(), key: accountKey(email), failed_at: at },
    ])
    .execute();
  // Keep the table small: failures older than the window no longer count.
  await db
    .deleteFrom('login_failures')
    .where('failed_at', '<', new Date(now.getTime() - LOGIN_WINDOW_MS).toISOString())
    .execute();
}

/** A successful login clears the account's failures (the address keeps its count). */
export async function clearAccountFailures(db: Kysely<DB>, email: string): Promise<void> {
  await db.deleteFrom('login_failures').where('key', '=', accountKey(email)).execute();
}

import type { CompiledQuery, Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { toIso, toIsoOrNull } from '../../db/values.js';
import type { Counter } from './login-rules.js';

type CounterRow = {
  attempts: number;
  window_start: Date | string;
  blocked_until: Date | string | null;
  updated_at: Date | string;
};

function toCounter(row: CounterRow): Counter {
  const blocked = toIsoOrNull(row.blocked_until);
  return {
    attempts: row.attempts,
    windowStart: new Date(toIso(row.window_start)),
    blockedUntil: blocked ? new Date(blocked) : null,
    updatedAt: new Date(toIso(row.updated_at)),
  };
}

export async function findCounter(db: Kysely<DB>, key: string): Promise<Counter | undefined> {
  const row = await db.selectFrom('login_throttles').selectAll().where('key', '=', key).executeTakeFirst();
  return row ? toCounter(row) : undefined;
}

function columns(counter: Counter) {
  return {
    attempts: counter.attempts,
    window_start: counter.windowStart.toISOString(),
    blocked_until: counter.blockedUntil?.toISOString() ?? null,
    updated_at: counter.updatedAt.toISOString(),
  };
}

/**
 * Replaces the counter only if it still holds exactly `expected` (undefined: only if there is none):
 * true when this call won. Two parallel attempts can never both move the counter from the same state.
 */
export async function compareAndSetCounter(
  db: Kysely<DB>,
  key: string,
  expected: Counter | undefined,
  next: Counter,
): Promise<boolean> {
  if (!expected) {
    const inserted = await db
      .insertInto('login_throttles')
      .values({ key, ...columns(next) })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  }
  const was = columns(expected);
  let update = db
    .updateTable('login_throttles')
    .set(columns(next))
    .where('key', '=', key)
    .where('attempts', '=', was.attempts)
    .where('window_start', '=', was.window_start)
    .where('updated_at', '=', was.updated_at);
  update =
    was.blocked_until === null
      ? update.where('blocked_until', 'is', null)
      : update.where('blocked_until', '=', was.blocked_until);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Drops a counter. */
export function counterDelete(db: Kysely<DB>, key: string): CompiledQuery {
  return db.deleteFrom('login_throttles').where('key', '=', key).compile();
}

/** Gives one attempt back to a counter, if it is still in the window the attempt was taken in. */
export function attemptRefund(db: Kysely<DB>, key: string, windowStart: Date): CompiledQuery {
  return db
    .updateTable('login_throttles')
    .set((eb) => ({ attempts: eb('attempts', '-', 1) }))
    .where('key', '=', key)
    .where('window_start', '=', windowStart.toISOString())
    .where('attempts', '>', 0)
    .compile();
}

export async function refundAttempt(db: Kysely<DB>, key: string, windowStart: Date): Promise<void> {
  await db.executeQuery(attemptRefund(db, key, windowStart));
}

/** Records that the account logged in from this address now. */
export function addressRemember(db: Kysely<DB>, userId: string, address: string, at: Date): CompiledQuery {
  return db
    .insertInto('login_known_addresses')
    .values({ user_id: userId, address, last_login_at: at.toISOString() })
    .onConflict((oc) => oc.columns(['user_id', 'address']).doUpdateSet({ last_login_at: at.toISOString() }))
    .compile();
}

/** Drops counters idle since `before` and addresses not used since `addressesBefore`. */
export async function pruneThrottles(db: Kysely<DB>, before: Date, addressesBefore: Date): Promise<void> {
  await db.deleteFrom('login_throttles').where('updated_at', '<', before.toISOString()).execute();
  await db.deleteFrom('login_known_addresses').where('last_login_at', '<', addressesBefore.toISOString()).execute();
}

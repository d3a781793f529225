import { sql, type CompiledQuery, type Kysely } from 'kysely';
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

/**
 * Counts one attempt on a windowed counter in one statement, if it is under `ceiling` in its window (a window
 * older than `windowMs` starts again at 1): the window the attempt was counted in, or undefined when the ceiling
 * is reached. An atomic increment rather than compare-and-set, as every login from one address shares the row:
 * parallel attempts wait for one another instead of losing rounds.
 */
export async function countWithinCeiling(
  db: Kysely<DB>,
  key: string,
  now: Date,
  windowMs: number,
  ceiling: number,
): Promise<Date | undefined> {
  const at = now.toISOString();
  const expired = new Date(now.getTime() - windowMs).toISOString();
  const row = await db
    .insertInto('login_throttles')
    .values({ key, attempts: 1, window_start: at, blocked_until: null, updated_at: at })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({
          attempts: sql<number>`case when login_throttles.window_start <= ${expired} then 1
            else login_throttles.attempts + 1 end`,
          window_start: sql<string>`case when login_throttles.window_start <= ${expired} then ${at}
            else login_throttles.window_start end`,
          updated_at: at,
        })
        .where((eb) =>
          eb.or([eb('login_throttles.window_start', '<=', expired), eb('login_throttles.attempts', '<', ceiling)]),
        ),
    )
    .returning('window_start')
    .executeTakeFirst();
  return row ? new Date(toIso(row.window_start)) : undefined;
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

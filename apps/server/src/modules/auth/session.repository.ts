import { sql, type CompiledQuery, type Kysely, type RawBuilder } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.js';
import type { DB } from '../../db/schema.js';
import { toBool, toIso } from '../../db/values.js';
import type { ActiveSession, SessionProbe } from './session-check.js';
import { sessionsChanged } from './session-cache.js';

/** A new session's insert. */
export function sessionInsert(
  db: Kysely<DB>,
  session: { id: string; user_id: string; created_at: string; expires_at: string; restricted?: boolean },
): CompiledQuery {
  return db
    .insertInto('sessions')
    .values({ ...session, restricted: session.restricted ?? false, revoked_at: null })
    .compile();
}

export async function insertSession(db: Kysely<DB>, session: Parameters<typeof sessionInsert>[1]): Promise<void> {
  await db.executeQuery(sessionInsert(db, session));
}

/** The session when it exists, is not revoked and has not expired. */
export async function findActiveSession(
  db: Kysely<DB>,
  id: string,
  now: string,
): Promise<{ userId: string; restricted: boolean; expiresAt: string } | undefined> {
  // Built once per dialect (db/compiled-once.ts): the session check of most authenticated requests.
  const { rows } = await db.executeQuery(
    compiledOnce(
      db,
      'activeSession',
      (sessionId, at) =>
        db
          .selectFrom('sessions')
          .select(['user_id', 'restricted', 'expires_at'])
          .where('id', '=', sessionId)
          .where('revoked_at', 'is', null)
          .where('expires_at', '>', at)
          .compile(),
      [id, now],
    ),
  );
  const row = rows[0];
  return row && { userId: row.user_id, restricted: toBool(row.restricted), expiresAt: toIso(row.expires_at) };
}

/**
 * A scalar subquery another module's statement selects to check the caller's session in the same statement
 * (session-check.ts): the session's `restricted` flag when it is active at the probe's time, else null.
 * Read the column with `toActiveSession`.
 */
export function activeSessionColumn(probe: SessionProbe): RawBuilder<unknown> {
  return sql`(select s.restricted from sessions s
    where s.id = ${probe.sessionId} and s.revoked_at is null and s.expires_at > ${probe.now})`;
}

/** The value `activeSessionColumn` selected: the active session, or undefined for none. */
export function toActiveSession(value: unknown): ActiveSession | undefined {
  if (value === null || value === undefined) return undefined;
  return { restricted: toBool(value as boolean | number) };
}

/** Revokes every active session of an account; how many were revoked. */
export async function revokeUserSessions(db: Kysely<DB>, userId: string, now: string): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  sessionsChanged(db, { userId });
  return Number(result.numUpdatedRows);
}

/** Lifts the enrolment restriction from the account's sessions (two-factor is now set up). */
export async function unrestrictUserSessions(db: Kysely<DB>, userId: string): Promise<void> {
  await db.updateTable('sessions').set({ restricted: false }).where('user_id', '=', userId).execute();
  sessionsChanged(db, { userId });
}

export async function revokeSession(db: Kysely<DB>, id: string, now: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
  sessionsChanged(db, { sessionId: id });
}

/**
 * A logout whose session check is still pending (PostgreSQL, docs/decisions/0058), in one statement: reads the
 * session as the check would at the probe's time and revokes it only when the check accepts it (active and not
 * waiting for two-factor enrolment). Returns what the check read; settle it with that. The revocation runs
 * though the outer select does not read it: PostgreSQL runs a data-modifying WITH member to completion.
 */
export async function revokeSessionChecking(
  db: Kysely<DB>,
  probe: SessionProbe,
  now: string,
): Promise<ActiveSession | undefined> {
  const { rows } = await sql<{ restricted: unknown }>`with s as (
      select s.restricted from sessions s
      where s.id = ${probe.sessionId} and s.revoked_at is null and s.expires_at > ${probe.now}
    ), r as (
      update sessions set revoked_at = ${now}
      where id = ${probe.sessionId} and revoked_at is null and expires_at > ${probe.now} and restricted = false
      returning id
    )
    select s.restricted from s`.execute(db);
  sessionsChanged(db, { sessionId: probe.sessionId });
  return toActiveSession(rows[0]?.restricted);
}

export async function deleteExpiredSessions(db: Kysely<DB>, now: string): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<', now).execute();
}

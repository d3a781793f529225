import { sql, type CompiledQuery, type Kysely } from 'kysely';
import { hotRead } from '../../db/hot-read.js';
import type { DB } from '../../db/schema.js';
import { toBool, toIso } from '../../db/values.js';
import { sessionsChanged, type ActiveSession } from './session-cache.js';

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

const activeSession = hotRead('activeSession', ['id', 'now'], (db, p) =>
  db
    .selectFrom('sessions')
    .select(['user_id', 'restricted', 'expires_at'])
    .where('id', '=', p.id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', p.now)
    .compile(),
);

/** The session when it exists, is not revoked and has not expired: the session check of every guarded request. */
export async function findActiveSession(db: Kysely<DB>, id: string, now: string): Promise<ActiveSession | undefined> {
  const [row] = await activeSession(db, { id, now });
  return row && { userId: row.user_id, restricted: toBool(row.restricted), expiresAt: toIso(row.expires_at) };
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

export async function deleteExpiredSessions(db: Kysely<DB>, now: string): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<', now).execute();
}

/**
 * Of these sessions, those that still admit a staff stream at `now`: not revoked, not expired, not waiting for
 * two-factor enrolment, and of an account that is still an admin or an analyst (the monitor's stream re-checks
 * its watchers with it on every poll: one statement for all of them).
 */
export async function activeStaffSessionIds(
  db: Kysely<DB>,
  sessionIds: readonly string[],
  now: string,
): Promise<string[]> {
  if (sessionIds.length === 0) return [];
  const rows = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select('s.id')
    .where('s.id', 'in', sessionIds)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now)
    .where(sql<boolean>`s.restricted = false`)
    .where((eb) => eb.or([eb('u.role', '=', 'analyst'), sql<boolean>`u.is_admin = true`]))
    .execute();
  return rows.map((row) => row.id);
}

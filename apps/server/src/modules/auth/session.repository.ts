import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { toBool } from '../../db/values.js';

export async function insertSession(
  db: Kysely<DB>,
  session: { id: string; user_id: string; created_at: string; expires_at: string; restricted?: boolean },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({ ...session, restricted: session.restricted ?? false, revoked_at: null })
    .execute();
}

/** The session when it exists, is not revoked and has not expired. */
export async function findActiveSession(
  db: Kysely<DB>,
  id: string,
  now: string,
): Promise<{ restricted: boolean } | undefined> {
  const row = await db
    .selectFrom('sessions')
    .select('restricted')
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row && { restricted: toBool(row.restricted) };
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
  return Number(result.numUpdatedRows);
}

/** Lifts the enrolment restriction from the account's sessions (two-factor is now set up). */
export async function unrestrictUserSessions(db: Kysely<DB>, userId: string): Promise<void> {
  await db.updateTable('sessions').set({ restricted: false }).where('user_id', '=', userId).execute();
}

export async function revokeSession(db: Kysely<DB>, id: string, now: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function deleteExpiredSessions(db: Kysely<DB>, now: string): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<', now).execute();
}

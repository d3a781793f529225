import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export async function insertSession(
  db: Kysely<DB>,
  session: { id: string; user_id: string; created_at: string; expires_at: string },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({ ...session, revoked_at: null })
    .execute();
}

/** True when the session exists, is not revoked and has not expired. */
export async function isSessionActive(db: Kysely<DB>, id: string, now: string): Promise<boolean> {
  const row = await db
    .selectFrom('sessions')
    .select('id')
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
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

import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export async function insertPreviewLink(
  db: Kysely<DB>,
  row: {
    token_hash: string;
    user_id: string;
    experiment_id: string;
    created_by: string;
    created_at: string;
    expires_at: string;
  },
): Promise<void> {
  await db
    .insertInto('preview_links')
    .values({ ...row, used_at: null })
    .execute();
}

/**
 * Marks the link used and returns whom it signs in, in one statement: only an unused link that has not
 * expired matches, so two requests racing with one link cannot both succeed.
 */
export async function useLinkOnce(
  db: Kysely<DB>,
  tokenHash: string,
  now: string,
): Promise<{ user_id: string; experiment_id: string; created_by: string | null } | undefined> {
  return db
    .updateTable('preview_links')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'experiment_id', 'created_by'])
    .executeTakeFirst();
}

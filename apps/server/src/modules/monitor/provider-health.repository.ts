import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** The experiment's assistant replies stored since `sinceIso` (the read model reads the chat's tables). */
export function listRecentReplies(db: Kysely<DB>, experimentId: string, sinceIso: string) {
  return db
    .selectFrom('chat_messages as m')
    .innerJoin('chat_threads as t', 't.id', 'm.thread_id')
    .where('t.experiment_id', '=', experimentId)
    .where('m.role', '=', 'assistant')
    .where('m.created_at', '>=', sinceIso)
    .select(['m.status', 'm.queue_ms', 'm.fallback_from', 'm.created_at'])
    .execute();
}

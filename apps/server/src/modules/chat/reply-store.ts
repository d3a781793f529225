import { sql, type Kysely, type Updateable } from 'kysely';
import { atomicWrites } from '../../db/atomic-writes.js';
import type { ChatMessagesTable, DB } from '../../db/schema.js';
import { toNumber } from '../../db/values.js';
import { holdParticipant, participantEventInsert, type ParticipantEvent } from '../journey/journey-log.js';

// A finished reply's writes: the reply's row, the thread's running totals (its reservation settled) and, when
// this reply completed the chat, the journey's `chat_complete` event. They are stored together or not at all.

export interface FinishedReply {
  messageId: string;
  /** How the reply ended: its text, status and measurements. */
  changes: Updateable<ChatMessagesTable>;
  threadId: string;
  /** The reply's input and output tokens and its cost, added to the thread's totals. */
  tokens: number;
  /** Of its input tokens, those written to and read from the prompt cache, added to the thread's totals. */
  cacheWriteTokens?: number;
  cacheReadTokens?: number;
  costUsd: number;
  /** The journey's event when this reply made the chat complete (chat-journey.ts), else null. */
  chatComplete: ParticipantEvent | null;
}

/**
 * Stores a finished reply atomically (db/atomic-writes.ts: one statement on PostgreSQL, docs/decisions/0069, one
 * transaction on SQLite). Returns the thread's tokens used after it (0 when the thread is gone). The reply that
 * completes the chat holds the participant's assignment first (docs/decisions/0074-hardening.md).
 */
export async function storeFinishedReply(db: Kysely<DB>, reply: FinishedReply): Promise<number> {
  const usage = db
    .updateTable('chat_threads')
    .set({
      tokens_used: sql<number>`tokens_used + ${reply.tokens}`,
      cache_write_tokens: sql<number>`cache_write_tokens + ${reply.cacheWriteTokens ?? 0}`,
      cache_read_tokens: sql<number>`cache_read_tokens + ${reply.cacheReadTokens ?? 0}`,
      cost_usd: sql<number>`cost_usd + ${reply.costUsd}`,
      // The reservation made before the call is settled by its cost, in the same write (docs/decisions/0073).
      reserved_usd: 0,
    })
    .where('id', '=', reply.threadId)
    .returning('tokens_used')
    .compile();
  const message = db.updateTable('chat_messages').set(reply.changes).where('id', '=', reply.messageId).compile();
  const event = reply.chatComplete;
  if (!event) {
    const [row] = await atomicWrites<{ tokens_used: number | string }>(db, [usage, message]);
    return row ? toNumber(row.tokens_used) : 0;
  }
  // The reply that completes the chat appends the participant's event: their assignment is held first, in a
  // transaction around the writes, so a withdrawal racing it leaves no event behind (0074).
  return db.transaction().execute(async (trx) => {
    await holdParticipant(trx, event.userId, event.experimentId);
    const writes = [usage, message, participantEventInsert(trx, event)];
    const [row] = await atomicWrites<{ tokens_used: number | string }>(trx, writes);
    return row ? toNumber(row.tokens_used) : 0;
  });
}

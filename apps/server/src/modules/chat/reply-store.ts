import { PostgresAdapter, sql, type CompiledQuery, type Kysely, type Updateable } from 'kysely';
import { asOneStatement } from '../../db/one-statement.js';
import type { ChatMessagesTable, DB } from '../../db/schema.js';
import { toNumber } from '../../db/values.js';
import { participantEventInsert, type ParticipantEvent } from '../journey/journey-events.repository.js';

// A finished reply's writes: the reply's row, the thread's running totals and, when this reply completed the
// chat, the journey's `chat_complete` event. They are stored together or not at all.

export interface FinishedReply {
  messageId: string;
  /** How the reply ended: its text, status and measurements. */
  changes: Updateable<ChatMessagesTable>;
  threadId: string;
  /** The reply's input and output tokens and its cost, added to the thread's totals. */
  tokens: number;
  costUsd: number;
  /** The journey's event when this reply made the chat complete (chat-journey.ts), else null. */
  chatComplete: ParticipantEvent | null;
}

function statements(db: Kysely<DB>, reply: FinishedReply): [CompiledQuery, CompiledQuery, ...CompiledQuery[]] {
  const message = db.updateTable('chat_messages').set(reply.changes).where('id', '=', reply.messageId).compile();
  const usage = db
    .updateTable('chat_threads')
    .set({
      tokens_used: sql<number>`tokens_used + ${reply.tokens}`,
      cost_usd: sql<number>`cost_usd + ${reply.costUsd}`,
    })
    .where('id', '=', reply.threadId)
    .returning('tokens_used')
    .compile();
  return reply.chatComplete ? [message, usage, participantEventInsert(db, reply.chatComplete)] : [message, usage];
}

/**
 * Stores a finished reply atomically: one statement on PostgreSQL (db/one-statement.ts, docs/decisions/0069),
 * one transaction on SQLite. Returns the thread's tokens used after it (0 when the thread is gone).
 */
export async function storeFinishedReply(db: Kysely<DB>, reply: FinishedReply): Promise<number> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const { rows } = await db.executeQuery(
      asOneStatement<{ tokens_used: number | string }>(statements(db, reply), 'select tokens_used from w1'),
    );
    return rows[0] ? toNumber(rows[0].tokens_used) : 0;
  }
  return db.transaction().execute(async (trx) => {
    const [message, usage, ...event] = statements(trx, reply);
    await trx.executeQuery(message);
    const { rows } = await trx.executeQuery(usage as CompiledQuery<{ tokens_used: number | string }>);
    for (const statement of event) await trx.executeQuery(statement);
    return rows[0] ? toNumber(rows[0].tokens_used) : 0;
  });
}

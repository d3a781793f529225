import type { ChatRule } from '@studychat/contracts';
import type { Kysely } from 'kysely';
import type { ChatThreadRow, DB } from '../../db/schema.js';
import { holdParticipant, type ParticipantEvent } from '../journey/journey-log.js';
import { logChatComplete } from '../journey/journey-log.js';
import { toProgress, type ProgressRow } from '../journey/chat-facts.js';
import { closeThread, listThreadMessages } from './chat.repository.js';

// The chat's part in the participant's journey log: the chat step is done once the chat is complete by the
// server's rounds and points (by the condition's rule, the study's or the spec's), or once a limit ended it
// (the model never blocks the journey).

type ThreadRef = Pick<ChatThreadRow, 'id' | 'user_id' | 'experiment_id'>;

/**
 * The journey's `chat_complete` event when this reply is the one that makes the chat complete by the server's
 * count (one reply is written at a time per thread, so once), else null; stored with the reply
 * (reply-store.ts). `before` are the thread's rows as read under the reply's lease, with the rows this request
 * added before the reply (no other request adds a row while the lease is held, so no read is needed here);
 * `reply` is the reply as it is stored.
 */
export function chatCompletedBy(
  thread: ThreadRef,
  before: readonly ProgressRow[],
  reply: ProgressRow,
  rule: ChatRule,
  now: Date,
): ParticipantEvent | null {
  const after = toProgress([...before, reply], rule);
  if (!after.complete) return null;
  if (toProgress([...before, { ...reply, status: 'streaming' }], rule).complete) return null;
  return {
    userId: thread.user_id,
    experimentId: thread.experiment_id,
    type: 'chat_complete',
    step: 'chat',
    data: { threadId: thread.id, rounds: after.rounds, points: after.points },
    createdAt: now.toISOString(),
  };
}

/**
 * Ends the chat for a limit (once; a repeat changes nothing) and, when the chat was not already complete,
 * logs `chat_complete` with the reason: the participant may proceed.
 */
export async function closeChat(
  db: Kysely<DB>,
  thread: ThreadRef,
  reason: string,
  rule: ChatRule,
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // The participant held before their thread is touched, as a withdrawal locks them first (0074).
    await holdParticipant(trx, thread.user_id, thread.experiment_id);
    if (!(await closeThread(trx, thread.id, reason, now.toISOString()))) return;
    const progress = toProgress(await listThreadMessages(trx, thread.id), rule);
    if (progress.complete) return;
    await logChatComplete(trx, {
      userId: thread.user_id,
      experimentId: thread.experiment_id,
      data: { threadId: thread.id, closed: reason, rounds: progress.rounds, points: progress.points },
      now,
    });
  });
}

import {
  CHAT_CLOSE_REASONS,
  chatDoneInTime,
  chatProgress,
  type ChatTimeRule,
  type ChatCloseReason,
  type ChatProgressValues,
  type ChatRule,
} from '@studychat/contracts';
import type { ChatMessageRow, ChatThreadRow } from '../../db/schema.js';
import { toMillis } from '../../db/values.js';

export type ProgressRow = Pick<ChatMessageRow, 'role' | 'status' | 'content'>;

/**
 * Rounds and points (chat-progress.ts rules) from the stored thread, complete by the condition's rule (the
 * spec's unless the study sets its own). A round is a participant message the assistant answered in full:
 * a message whose reply failed and was sent again counts once, as the chat page counts it.
 */
export function toProgress(rows: readonly ProgressRow[], rule?: ChatRule): ChatProgressValues {
  const answered = rows.filter((row, i) => {
    const next = rows[i + 1];
    return row.role === 'user' && next?.role === 'assistant' && next.status === 'complete';
  });
  return chatProgress(
    answered.map((row) => row.content),
    rule,
  );
}

/** What the journey needs to know of a participant's chat: the thread, its progress, whether a limit ended it. */
export interface ChatFacts {
  threadId: string | null;
  /** Rounds and points by the server's count (chat-progress.ts). */
  progress: ChatProgressValues;
  /** Why the chat ended, if it did (recorded on the thread). */
  closed: ChatCloseReason | null;
  /** When the chat started (epoch milliseconds): a flow arm's minutes count from here. */
  startedAt: number | null;
}

export const NO_CHAT: ChatFacts = {
  threadId: null,
  progress: { rounds: 0, chars: 0, points: 0, complete: false },
  closed: null,
  startedAt: null,
};

/** The chat facts from the thread and its messages in order, complete by the condition's rule. */
export function toChatFacts(
  thread: Pick<ChatThreadRow, 'id' | 'closed_reason'> & { created_at?: unknown },
  messages: readonly ProgressRow[],
  rule: ChatRule,
): ChatFacts {
  return {
    threadId: thread.id,
    progress: toProgress(messages, rule),
    closed: CHAT_CLOSE_REASONS.find((r) => r === thread.closed_reason) ?? null,
    startedAt: thread.created_at === undefined ? null : toMillis(thread.created_at as string | Date),
  };
}

/** Ended by a limit (the model never blocks the journey), not by the participant's own completion. */
function closedByLimit(chat: ChatFacts): boolean {
  return chat.closed !== null && chat.closed !== 'completed';
}

/** The chat step is done: complete by rounds and points, or ended by a limit. */
export function chatStepDone(chat: ChatFacts): boolean {
  return chat.progress.complete || closedByLimit(chat);
}

/** The same for a flow's chat arm, with its least and most minutes from the chat's start at `now`. */
export function chatArmDone(chat: ChatFacts, time: ChatTimeRule, now: number): boolean {
  if (closedByLimit(chat)) return true;
  if (chat.startedAt === null) return false;
  return chatDoneInTime(chat.progress.complete, now - chat.startedAt, time);
}

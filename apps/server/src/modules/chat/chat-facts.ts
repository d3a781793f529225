import type { ChatCloseReason, ChatProgressValues, ChatRule } from '@studychat/contracts';
import { CHAT_CLOSE_REASONS } from '@studychat/contracts';
import type { ChatThreadRow } from '../../db/schema.js';
import { toProgress, type ProgressRow } from './chat.mapper.js';

/** What the journey needs to know of a participant's chat: the thread, its progress, whether a limit ended it. */
export interface ChatFacts {
  threadId: string | null;
  /** Rounds and points by the server's count (chat-progress.ts). */
  progress: ChatProgressValues;
  /** Why the chat ended, if it did (recorded on the thread). */
  closed: ChatCloseReason | null;
}

export const NO_CHAT: ChatFacts = {
  threadId: null,
  progress: { rounds: 0, chars: 0, points: 0, complete: false },
  closed: null,
};

/** The chat facts from the thread and its messages in order, complete by the condition's rule. */
export function toChatFacts(
  thread: Pick<ChatThreadRow, 'id' | 'closed_reason'>,
  messages: readonly ProgressRow[],
  rule: ChatRule,
): ChatFacts {
  return {
    threadId: thread.id,
    progress: toProgress(messages, rule),
    closed: CHAT_CLOSE_REASONS.find((r) => r === thread.closed_reason) ?? null,
  };
}

/** The chat step is done: complete by rounds and points, or ended by a limit (the model never blocks the journey). */
export function chatStepDone(chat: ChatFacts): boolean {
  return chat.progress.complete || (chat.closed !== null && chat.closed !== 'completed');
}

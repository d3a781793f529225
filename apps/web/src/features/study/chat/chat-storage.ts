// The chat's browser state, under the local storage keys spec section 3 names. Only a cache: the
// server holds the thread and its progress, and the page re-reads them when this is missing.
import { chatPoints, isChatComplete, SPEC_CHAT_RULE, type ChatRule } from '@studychat/contracts/web';
import { experimentKeys } from '../../../lib/storage-keys';
import type { Progress, UiMessage } from './chat-types';

export interface StoredChat {
  threadId: string | null;
  messages: UiMessage[];
  progress: Progress;
}

function readNumber(key: string): number {
  const value = Number(localStorage.getItem(key));
  return Number.isFinite(value) && value >= 0 ? value : 0;
}

function readMessages(key: string): UiMessage[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(isMessage).map(({ id, role, content, created_at }) => ({ id, role, content, created_at }));
  } catch {
    return [];
  }
}

function isMessage(value: unknown): value is UiMessage {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  return (
    typeof m.id === 'string' &&
    (m.role === 'user' || m.role === 'assistant') &&
    typeof m.content === 'string' &&
    typeof m.created_at === 'string'
  );
}

/** Reads the stored chat (complete by the condition's rule); anything unreadable counts as absent. */
export function loadChat(experimentId: string, rule: ChatRule = SPEC_CHAT_RULE): StoredChat {
  const keys = experimentKeys(experimentId);
  const rounds = Math.floor(readNumber(keys.rounds));
  const chars = Math.floor(readNumber(keys.chars));
  // Points and completion are derived again so an edited value cannot unlock Proceed on its own.
  const points = chatPoints(rounds, chars);
  return {
    threadId: localStorage.getItem(keys.threadId) || null,
    messages: readMessages(keys.messages),
    // Whether the chat has ended is the server's to say: the page asks it on every load.
    progress: { rounds, chars, points, complete: isChatComplete(points, rounds, rule), closed: null },
  };
}

/** Stores the chat; bubbles still loading are left out (they are not messages yet). */
export function saveChat(experimentId: string, chat: StoredChat): void {
  const keys = experimentKeys(experimentId);
  try {
    if (chat.threadId) localStorage.setItem(keys.threadId, chat.threadId);
    const messages = chat.messages
      .filter((m) => !m.loading)
      .map(({ id, role, content, created_at }) => ({ id, role, content, created_at }));
    localStorage.setItem(keys.messages, JSON.stringify(messages));
    localStorage.setItem(keys.rounds, String(chat.progress.rounds));
    localStorage.setItem(keys.chars, String(chat.progress.chars));
    localStorage.setItem(keys.points, String(chat.progress.points));
    localStorage.setItem(keys.complete, String(chat.progress.complete));
  } catch {
    // Storage full or blocked (private mode): the server still has everything.
  }
}

/** Removes the chat's local data (Proceed does this before the post-survey). */
export function clearChat(experimentId: string): void {
  const keys = experimentKeys(experimentId);
  for (const key of [keys.threadId, keys.messages, keys.rounds, keys.chars, keys.points, keys.complete])
    localStorage.removeItem(key);
}

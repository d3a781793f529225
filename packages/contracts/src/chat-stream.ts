import type { ChatLimitsView, ChatProgress } from './chat.js';

// The chat's event stream, written once for both ends (spec section 7): `data:` lines holding JSON with `text`
// or `error`, ending with `data: [DONE]`. Before [DONE], the server sends the progress the reply left the chat
// at, so the page needs no read after a reply; a reader that knows only `text` and `error` skips it.

/** The progress and limits after a reply (sent once, just before [DONE], when the reply was stored). */
export interface ChatStreamProgress {
  progress: ChatProgress;
  limits: ChatLimitsView;
}

/**
 * The reply waits its turn at the AI provider (the shared rate limit, or the provider asked to wait): the page says
 * the assistant is busy; the reply follows on the same stream (docs/decisions/0076).
 */
export interface ChatStreamBusy {
  busy: string;
}

export type ChatStreamEvent = { text: string } | { error: string } | ChatStreamBusy | ChatStreamProgress;

/** What the participant reads while their reply waits its turn. */
export const CHAT_BUSY_TEXT =
  'The assistant is busy with other participants right now. Your message is in the queue and will be answered in a moment.';

/** The payload of the stream's last event. */
export const CHAT_STREAM_DONE = '[DONE]';

/** One event as the stream carries it. */
export function chatStreamEvent(event: ChatStreamEvent | 'done'): string {
  return `data: ${event === 'done' ? CHAT_STREAM_DONE : JSON.stringify(event)}\n\n`;
}

/** An event's data read back; null for data that is not one of the chat's events (ignored, never an error). */
export function readChatStreamEvent(data: string): ChatStreamEvent | 'done' | null {
  if (data.trim() === CHAT_STREAM_DONE) return 'done';
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  if (typeof record.error === 'string') return { error: record.error };
  if (typeof record.text === 'string') return { text: record.text };
  if (typeof record.busy === 'string') return { busy: record.busy };
  if (
    typeof record.progress === 'object' &&
    record.progress !== null &&
    typeof record.limits === 'object' &&
    record.limits !== null
  ) {
    return { progress: record.progress as ChatProgress, limits: record.limits as ChatLimitsView };
  }
  return null;
}

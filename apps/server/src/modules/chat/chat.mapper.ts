import { chatProgress, CONDITIONS, type ChatMessage, type ChatProgress, type Condition } from '@studychat/contracts';
import type { ChatMessageRow } from '../../db/schema.js';
import { toBool, toIso } from '../../db/values.js';
import type { ChatTurn } from '../../llm/chat-model.js';

/** A stored message as the participant sees it. */
export function toChatMessage(row: ChatMessageRow): ChatMessage {
  return { id: row.id, role: row.role, content: row.content, created_at: toIso(row.created_at) };
}

/** An assistant message that failed before any text: stored for the record, never shown or sent to the model. */
export function isEmptyFailure(row: ChatMessageRow): boolean {
  return row.role === 'assistant' && row.status !== 'complete' && row.content === '';
}

export function isInitial(row: ChatMessageRow): boolean {
  return toBool(row.is_initial);
}

/**
 * The stored thread as the model's history: initial greeting, then user/assistant turns. Turns without
 * text (a failed reply, or a model that answered nothing) are left out: the providers reject empty turns.
 */
export function toHistory(rows: readonly ChatMessageRow[]): ChatTurn[] {
  return rows.filter((r) => r.content.trim() !== '').map((r) => ({ role: r.role, content: r.content }));
}

/**
 * Rounds and points (chat-progress.ts rules) from the stored thread. A round is a participant message
 * the assistant answered in full: a message whose reply failed and was sent again counts once, as
 * the chat page counts it.
 */
export function toProgress(rows: readonly ChatMessageRow[]): ChatProgress {
  const answered = rows.filter((row, i) => {
    const next = rows[i + 1];
    return row.role === 'user' && next?.role === 'assistant' && next.status === 'complete';
  });
  return chatProgress(answered.map((row) => row.content));
}

export function toCondition(value: string): Condition | null {
  return (CONDITIONS as readonly string[]).includes(value) ? (value as Condition) : null;
}

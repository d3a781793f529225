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

/** The stored thread as the model's history: initial greeting, then user/assistant turns. */
export function toHistory(rows: readonly ChatMessageRow[]): ChatTurn[] {
  return rows.filter((r) => !isEmptyFailure(r)).map((r) => ({ role: r.role, content: r.content }));
}

/** Rounds and points from the participant's stored messages (chat-progress.ts rules). */
export function toProgress(userMessages: readonly string[]): ChatProgress {
  return chatProgress(userMessages);
}

export function toCondition(value: string): Condition | null {
  return (CONDITIONS as readonly string[]).includes(value) ? (value as Condition) : null;
}

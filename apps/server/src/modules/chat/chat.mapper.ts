import { isStudyCondition, type ChatMessage, type Condition, type StudyDefinition } from '@studychat/contracts';
import type { ChatMessageRow } from '../../db/schema.js';
import { toBool, toIso } from '../../db/values.js';
import type { ChatTurn } from '../../llm/chat-model.js';

/** A stored message as the participant sees it. */
export function toChatMessage(row: ChatMessageRow): ChatMessage {
  return { id: row.id, role: row.role, content: row.content, created_at: toIso(row.created_at), status: row.status };
}

export function isInitial(row: Pick<ChatMessageRow, 'is_initial'>): boolean {
  return toBool(row.is_initial);
}

/** The thread's greeting, once it is stored complete (a cut or empty one is generated again). */
export function isCompleteGreeting(row: ChatMessageRow): boolean {
  return isInitial(row) && row.status === 'complete';
}

/**
 * Whether the participant sees this message: not a greeting that never completed (they saw the canned
 * one), not a reply that failed or stopped before any text. An empty reply shows as '[No response from
 * assistant]'; a reply being written shows as it grows.
 */
export function shownToParticipant(row: ChatMessageRow): boolean {
  if (row.role === 'user') return true;
  if (isInitial(row)) return row.status === 'complete';
  if (row.status === 'error' || row.status === 'interrupted') return row.content !== '';
  return true;
}

/**
 * The stored thread as the model's history: the greeting, then user and assistant turns. Greetings that
 * never completed, replies still being written and turns without text (a failed or empty reply) are left
 * out: the providers reject empty turns.
 */
export function toHistory(
  rows: readonly Pick<ChatMessageRow, 'role' | 'content' | 'status' | 'is_initial'>[],
): ChatTurn[] {
  return rows
    .filter((r) => r.content.trim() !== '' && r.status !== 'streaming' && (!isInitial(r) || r.status === 'complete'))
    .map((r) => ({ role: r.role, content: r.content }));
}

/** What progress is counted from: each message's role, status and text, in the thread's order. */
/** A thread's condition if the study version declares it (docs/decisions/0061), else null. */
export function toCondition(study: Pick<StudyDefinition, 'conditionList'>, value: string): Condition | null {
  return isStudyCondition(study, value) ? value : null;
}

/** Characters of the first message kept in a thread's title. */
const TITLE_QUOTE_CHARS = 60;

/**
 * A title an admin can tell threads apart by: the condition and start time (UTC), then, once the
 * participant has written, the start of their first message.
 */
export function threadTitle(condition: string, startedIso: string, firstMessage?: string): string {
  const started = `${startedIso.slice(0, 10)} ${startedIso.slice(11, 16)} UTC`;
  const base = `${condition} chat, started ${started}`;
  if (firstMessage === undefined) return base;
  const words = firstMessage.replace(/\s+/g, ' ').trim();
  const quote =
    Array.from(words).length > TITLE_QUOTE_CHARS
      ? `${Array.from(words).slice(0, TITLE_QUOTE_CHARS).join('').trimEnd()}…`
      : words;
  return `${base}: “${quote}”`;
}

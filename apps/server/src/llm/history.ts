import type { ChatTurn } from './chat-model.js';

/**
 * Both APIs expect the conversation to open with a user turn. The initial greeting has no participant
 * message before it, so the history gets a short cue as its first user turn.
 */
export const OPENING_CUE =
  '(The participant has just opened the chat. Greet them briefly in two or three sentences and invite their questions.)';

/** The history as the providers want it: starting with a user turn. */
export function openingTurns(history: readonly ChatTurn[]): ChatTurn[] {
  if (history[0]?.role === 'user') return [...history];
  return [{ role: 'user', content: OPENING_CUE }, ...history];
}

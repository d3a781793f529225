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

/**
 * A rough, deliberately high token count: about three characters a token (English averages nearer
 * four) plus a few tokens of framing per turn, so a bound computed with it holds without a tokenizer.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 3) + 4;
}

/**
 * Turns alternating between user and assistant, as the providers expect: consecutive turns of one role
 * (a participant message whose reply failed, then the next message) become one turn, and a message sent
 * again word for word counts once.
 */
export function alternateTurns(turns: readonly ChatTurn[]): ChatTurn[] {
  const out: ChatTurn[] = [];
  for (const turn of turns) {
    const last = out.at(-1);
    if (last?.role !== turn.role) out.push({ ...turn });
    else if (!last.content.trim().endsWith(turn.content.trim())) last.content = `${last.content}\n\n${turn.content}`;
  }
  return out;
}

/**
 * The newest turns that fit in `maxTokens` together with the system prompt. The system prompt is always
 * sent and the last turn (the participant message to answer) always kept; the oldest turns go first.
 * A shortened history starts with a user turn: an assistant turn first would get the greeting cue.
 */
export function fitHistory(system: string, turns: readonly ChatTurn[], maxTokens: number): ChatTurn[] {
  let budget = maxTokens - estimateTokens(system);
  let start = turns.length;
  while (start > 0) {
    const cost = estimateTokens(turns[start - 1]?.content ?? '');
    if (start < turns.length && cost > budget) break;
    budget -= cost;
    start -= 1;
  }
  if (start === 0) return [...turns];
  while (start < turns.length - 1 && turns[start]?.role !== 'user') start += 1;
  return turns.slice(start);
}

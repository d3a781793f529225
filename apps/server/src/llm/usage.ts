import type { ChatRequest, ChatTurn } from './chat-model.js';
import { estimateTokens, openingTurns } from './history.js';
import type { TokenUsage } from './pricing.js';

// What a call uses, when the provider does not say (an estimate), and at most (the spend reserved before it).

/** Framing tokens a provider adds around the system prompt and each turn, counted generously. */
const FRAMING_TOKENS = 16;

/**
 * The most input tokens a request can be billed for, without a tokenizer: no tokenizer makes more tokens than
 * the text has UTF-8 bytes, plus framing per turn. Deliberately high (English runs near four bytes a token), so
 * the spend reserved before a call covers it (docs/decisions/0073).
 */
export function maxInputTokens(request: Pick<ChatRequest, 'system' | 'history'>): number {
  const turns = openingTurns(request.history);
  let tokens = Buffer.byteLength(request.system, 'utf8') + FRAMING_TOKENS;
  for (const turn of turns) tokens += Buffer.byteLength(turn.content, 'utf8') + FRAMING_TOKENS;
  return tokens;
}

/** The input tokens of what was sent, estimated as the history fitting estimates them (history.ts). */
export function estimateInputTokens(system: string, history: readonly ChatTurn[]): number {
  return openingTurns(history).reduce((sum, turn) => sum + estimateTokens(turn.content), estimateTokens(system));
}

/**
 * A reply's usage: what the provider reported, each count it did not report estimated from the text sent and
 * received (a provider that reports none must not switch the token limit and the budget off). `estimated` says
 * whether any count is an estimate.
 */
export function replyUsage(
  reported: {
    inputTokens: number | null;
    outputTokens: number | null;
    cacheWriteTokens?: number | null | undefined;
    cacheReadTokens?: number | null | undefined;
  },
  sent: { system: string; history: readonly ChatTurn[] },
  received: { text: string; thinking: string },
): TokenUsage & { estimated: boolean } {
  const inputTokens = reported.inputTokens ?? estimateInputTokens(sent.system, sent.history);
  const outputTokens =
    reported.outputTokens ??
    estimateTokens(received.text) + (received.thinking === '' ? 0 : estimateTokens(received.thinking));
  // Cache counts are kept only with the input count they are part of (an estimate has none: all plain input).
  const cached = reported.inputTokens !== null;
  return {
    inputTokens,
    outputTokens,
    cacheWriteTokens: cached ? (reported.cacheWriteTokens ?? undefined) : undefined,
    cacheReadTokens: cached ? (reported.cacheReadTokens ?? undefined) : undefined,
    estimated: reported.inputTokens === null || reported.outputTokens === null,
  };
}

import type { ModelPrice } from '@studychat/contracts';

export type { ModelPrice };
/** Prices by model name (USD per million tokens of each kind). */
export type PriceTable = Record<string, ModelPrice>;

/**
 * List prices (USD per million tokens) of current and recent models, as published by Anthropic and
 * OpenAI (November 2026). LLM_PRICES overrides or extends them. A model not listed has no price rather than a
 * wrong one (e.g. a tiered price such as Claude Haiku 5.5's, or a local model), and is refused until it is given
 * one (docs/decisions/0073).
 */
export const DEFAULT_PRICES: PriceTable = {
  'claude-fable-5-1': { inputPerMTok: 10, outputPerMTok: 50 },
  'claude-opus-5-5': { inputPerMTok: 4, outputPerMTok: 20 },
  'claude-sonnet-5-5': { inputPerMTok: 2, outputPerMTok: 10 },
  'claude-opus-5': { inputPerMTok: 5, outputPerMTok: 25 },
  'claude-sonnet-5': { inputPerMTok: 2, outputPerMTok: 10 },
  'claude-sonnet-4-6': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-opus-4-5': { inputPerMTok: 5, outputPerMTok: 25 },
  'claude-opus-4-1': { inputPerMTok: 15, outputPerMTok: 75 },
  'claude-opus-4': { inputPerMTok: 15, outputPerMTok: 75 },
  'claude-sonnet-4-5': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-sonnet-4': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-3-7-sonnet': { inputPerMTok: 3, outputPerMTok: 15 },
  'claude-haiku-4-5': { inputPerMTok: 1, outputPerMTok: 5 },
  'claude-3-5-haiku': { inputPerMTok: 0.8, outputPerMTok: 4 },
  'gpt-5': { inputPerMTok: 1.25, outputPerMTok: 10 },
  'gpt-5-mini': { inputPerMTok: 0.25, outputPerMTok: 2 },
  'gpt-5-nano': { inputPerMTok: 0.05, outputPerMTok: 0.4 },
  'gpt-4.1': { inputPerMTok: 2, outputPerMTok: 8 },
  'gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6 },
  'gpt-4.1-nano': { inputPerMTok: 0.1, outputPerMTok: 0.4 },
  'gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10 },
  'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 },
  'o4-mini': { inputPerMTok: 1.1, outputPerMTok: 4.4 },
  o3: { inputPerMTok: 2, outputPerMTok: 8 },
  'scripted-offline': { inputPerMTok: 0, outputPerMTok: 0 },
};

/**
 * The price for a model: an exact entry, else the longest entry the name starts with, so dated
 * snapshots ('claude-sonnet-4-5-20250929', 'gpt-4o-mini-2024-07-18') find their family. Null: no known price.
 */
export function priceFor(model: string, table: PriceTable): ModelPrice | null {
  const exact = table[model];
  if (exact) return exact;
  let best: string | null = null;
  for (const name of Object.keys(table)) {
    if (model.startsWith(`${name}-`) && (best === null || name.length > best.length)) best = name;
  }
  return best === null ? null : (table[best] ?? null);
}

/**
 * The tokens one call was billed for, by kind (the same kinds as ModelPrice). Prompt caching will add its kinds
 * here and in ModelPrice, and costOf will price each at its own rate.
 */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** Cost in USD of a call's tokens at a price. */
export function costOf(usage: TokenUsage, price: ModelPrice): number {
  return (usage.inputTokens * price.inputPerMTok + usage.outputTokens * price.outputPerMTok) / 1_000_000;
}

/** The defaults with the configured overrides on top. */
export function mergePrices(overrides: PriceTable): PriceTable {
  return { ...DEFAULT_PRICES, ...overrides };
}

/**
 * The refusal of a model with no known price (the chat budget could not count what it costs), saying how to give
 * one: in LLM_PRICES for the deployment's model, and also in the condition's model settings for a study's.
 */
export function noPriceMessage(model: string, where: 'deployment' | 'study' = 'deployment'): string {
  const example = JSON.stringify({ [model]: { inputPerMTok: 3, outputPerMTok: 15 } });
  const study =
    where === 'study'
      ? ", or in the condition's model settings (Price per million input tokens and output tokens, in USD)"
      : '';
  return `No price is known for the model "${model}", so the chat budget could not count what it costs. Give its price in US dollars per million tokens in LLM_PRICES, e.g. LLM_PRICES='${example}' with your provider's prices${study}.`;
}

import type { ModelPrice } from '@studychat/contracts';

export type { ModelPrice };
/** Prices by model name (USD per million tokens of each kind). */
export type PriceTable = Record<string, ModelPrice>;

/** Anthropic's documented cache rates for every Claude model: writes (5-minute entries) 1.25 x input, reads 0.1 x. */
const CLAUDE_CACHE_WRITE = 1.25;
const CLAUDE_CACHE_READ = 0.1;

const claude = (inputPerMTok: number, outputPerMTok: number): ModelPrice => ({
  inputPerMTok,
  outputPerMTok,
  cacheWritePerMTok: round(inputPerMTok * CLAUDE_CACHE_WRITE),
  cacheReadPerMTok: round(inputPerMTok * CLAUDE_CACHE_READ),
});

/** OpenAI bills no write fee on these models (before GPT-5.6); a cached input token costs the model's cached price. */
const openai = (inputPerMTok: number, cachedPerMTok: number, outputPerMTok: number): ModelPrice => ({
  inputPerMTok,
  outputPerMTok,
  cacheWritePerMTok: inputPerMTok,
  cacheReadPerMTok: cachedPerMTok,
});

function round(n: number): number {
  return Math.round(n * 1e9) / 1e9;
}

/**
 * List prices (USD per million tokens) of current and recent models, as published by Anthropic and
 * OpenAI (November 2026), with the prompt cache's writes and reads at their own rates (docs/decisions/0076).
 * LLM_PRICES overrides or extends them. A model not listed has no price rather than a wrong one (e.g. a tiered
 * price such as Claude Haiku 5.5's, or a local model), and is refused until it is given one (docs/decisions/0073).
 */
export const DEFAULT_PRICES: PriceTable = {
  'claude-fable-5-1': claude(10, 50),
  'claude-opus-5-5': claude(4, 20),
  'claude-sonnet-5-5': claude(2, 10),
  'claude-opus-5': claude(5, 25),
  'claude-sonnet-5': claude(2, 10),
  'claude-sonnet-4-6': claude(3, 15),
  'claude-opus-4-5': claude(5, 25),
  'claude-opus-4-1': claude(15, 75),
  'claude-opus-4': claude(15, 75),
  'claude-sonnet-4-5': claude(3, 15),
  'claude-sonnet-4': claude(3, 15),
  'claude-3-7-sonnet': claude(3, 15),
  'claude-haiku-4-5': claude(1, 5),
  'claude-3-5-haiku': claude(0.8, 4),
  'gpt-5': openai(1.25, 0.125, 10),
  'gpt-5-mini': openai(0.25, 0.025, 2),
  'gpt-5-nano': openai(0.05, 0.005, 0.4),
  'gpt-4.1': openai(2, 0.5, 8),
  'gpt-4.1-mini': openai(0.4, 0.1, 1.6),
  'gpt-4.1-nano': openai(0.1, 0.025, 0.4),
  'gpt-4o': openai(2.5, 1.25, 10),
  'gpt-4o-mini': openai(0.15, 0.075, 0.6),
  'o4-mini': openai(1.1, 0.275, 4.4),
  o3: openai(2, 0.5, 8),
  'scripted-offline': { inputPerMTok: 0, outputPerMTok: 0, cacheWritePerMTok: 0, cacheReadPerMTok: 0 },
};

/**
 * A price with its cache rates filled in where it gives none (an LLM_PRICES entry or a condition's own price with
 * input and output only): for a Claude model Anthropic's documented multipliers of its input price (the same for
 * every Claude model); for any other model the input price, so a cache read is never counted cheaper than the
 * provider may bill it.
 */
export function cachePrices(price: ModelPrice, model: string): Required<ModelPrice> {
  const isClaude = model.startsWith('claude-');
  return {
    inputPerMTok: price.inputPerMTok,
    outputPerMTok: price.outputPerMTok,
    cacheWritePerMTok:
      price.cacheWritePerMTok ?? (isClaude ? round(price.inputPerMTok * CLAUDE_CACHE_WRITE) : price.inputPerMTok),
    cacheReadPerMTok:
      price.cacheReadPerMTok ?? (isClaude ? round(price.inputPerMTok * CLAUDE_CACHE_READ) : price.inputPerMTok),
  };
}

/**
 * The price for a model: an exact entry, else the longest entry the name starts with, so dated
 * snapshots ('claude-sonnet-4-5-20250929', 'gpt-4o-mini-2024-07-18') find their family, with its cache rates
 * filled in (cachePrices). Null: no known price.
 */
export function priceFor(model: string, table: PriceTable): Required<ModelPrice> | null {
  const exact = table[model];
  if (exact) return cachePrices(exact, model);
  let best: string | null = null;
  for (const name of Object.keys(table)) {
    if (model.startsWith(`${name}-`) && (best === null || name.length > best.length)) best = name;
  }
  const found = best === null ? undefined : table[best];
  return found ? cachePrices(found, model) : null;
}

/**
 * The tokens one call was billed for, by kind (the kinds of ModelPrice). `inputTokens` is every input token the
 * call sent, cached or not; of those, `cacheWriteTokens` were written to the provider's prompt cache and
 * `cacheReadTokens` read from it (absent: none), and the rest are billed at the plain input price.
 */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheWriteTokens?: number | undefined;
  cacheReadTokens?: number | undefined;
}

/** The input tokens billed at the plain input price: neither written to nor read from the cache. */
export function uncachedInputTokens(usage: TokenUsage): number {
  return Math.max(0, usage.inputTokens - (usage.cacheWriteTokens ?? 0) - (usage.cacheReadTokens ?? 0));
}

/**
 * Cost in USD of a call's tokens at a price, each kind at its own rate; a price without cache rates counts
 * cached tokens at the input price (callers fill the rates in first: cachePrices).
 */
export function costOf(usage: TokenUsage, price: ModelPrice): number {
  const write = usage.cacheWriteTokens ?? 0;
  const read = usage.cacheReadTokens ?? 0;
  return (
    (uncachedInputTokens(usage) * price.inputPerMTok +
      write * (price.cacheWritePerMTok ?? price.inputPerMTok) +
      read * (price.cacheReadPerMTok ?? price.inputPerMTok) +
      usage.outputTokens * price.outputPerMTok) /
    1_000_000
  );
}

/** The most an input token can cost at a price: the highest of its rates (a cache write costs more than input). */
export function maxInputPerMTok(price: ModelPrice): number {
  return Math.max(price.inputPerMTok, price.cacheWritePerMTok ?? 0, price.cacheReadPerMTok ?? 0);
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

import { describe, expect, it } from 'vitest';
import { costOf, DEFAULT_PRICES, mergePrices, noPriceMessage, priceFor } from './pricing.js';

const cost = (model: string, inputTokens: number, outputTokens: number, table = DEFAULT_PRICES) => {
  const price = priceFor(model, table);
  return price === null ? null : costOf({ inputTokens, outputTokens }, price);
};

describe('price table', () => {
  it('computes USD from input and output tokens per million', () => {
    // claude-sonnet-4-5: $3 in, $15 out per million tokens.
    expect(cost('claude-sonnet-4-5', 1_000_000, 0)).toBe(3);
    expect(cost('claude-sonnet-4-5', 2000, 500)).toBeCloseTo(0.006 + 0.0075, 10);
    expect(cost('gpt-4o-mini', 10_000, 1000)).toBeCloseTo(0.0015 + 0.0006, 10);
  });

  it('finds dated snapshots by their family, preferring the longest match', () => {
    expect(priceFor('claude-sonnet-4-5-20250929', DEFAULT_PRICES)).toEqual(DEFAULT_PRICES['claude-sonnet-4-5']);
    expect(priceFor('gpt-4o-mini-2024-07-18', DEFAULT_PRICES)).toEqual(DEFAULT_PRICES['gpt-4o-mini']);
    expect(priceFor('gpt-4o-2024-08-06', DEFAULT_PRICES)).toEqual(DEFAULT_PRICES['gpt-4o']);
    // 'claude-sonnet-5' is a prefix of 'claude-sonnet-5-5' but not its family.
    expect(priceFor('claude-sonnet-5-5', DEFAULT_PRICES)).toEqual({ inputPerMTok: 2, outputPerMTok: 10 });
    expect(priceFor('claude-opus-5-5', DEFAULT_PRICES)).toEqual({ inputPerMTok: 4, outputPerMTok: 20 });
  });

  it('knows no price for a model it does not list (a local model, a provider-prefixed name), and the scripted model is free', () => {
    expect(priceFor('llama3.1:8b', DEFAULT_PRICES)).toBeNull();
    expect(priceFor('openai/gpt-4o', DEFAULT_PRICES)).toBeNull();
    expect(cost('scripted-offline', 1_000_000, 1_000_000)).toBe(0);
    expect(noPriceMessage('openai/gpt-4o')).toContain(
      `LLM_PRICES='{"openai/gpt-4o":{"inputPerMTok":3,"outputPerMTok":15}}'`,
    );
  });

  it('lets configuration override and extend the defaults', () => {
    const table = mergePrices({
      'llama3.1:8b': { inputPerMTok: 0, outputPerMTok: 0 },
      'gpt-4o': { inputPerMTok: 1, outputPerMTok: 2 },
    });
    expect(cost('llama3.1:8b', 100, 100, table)).toBe(0);
    expect(cost('gpt-4o', 1_000_000, 1_000_000, table)).toBe(3);
    expect(cost('claude-haiku-4-5', 1_000_000, 0, table)).toBe(1);
  });
});

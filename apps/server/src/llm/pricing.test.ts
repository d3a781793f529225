import { describe, expect, it } from 'vitest';
import {
  costOf,
  DEFAULT_PRICES,
  maxInputPerMTok,
  mergePrices,
  noPriceMessage,
  priceFor,
  uncachedInputTokens,
} from './pricing.js';

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
    expect(priceFor('claude-sonnet-5-5', DEFAULT_PRICES)).toMatchObject({ inputPerMTok: 2, outputPerMTok: 10 });
    expect(priceFor('claude-opus-5-5', DEFAULT_PRICES)).toMatchObject({ inputPerMTok: 4, outputPerMTok: 20 });
  });

  it('prices cache writes and reads at their own rates (docs/decisions/0076)', () => {
    // Anthropic: writes 1.25 x input, reads 0.1 x; claude-sonnet-4-5 is $3 input.
    expect(priceFor('claude-sonnet-4-5-20250929', DEFAULT_PRICES)).toEqual({
      inputPerMTok: 3,
      outputPerMTok: 15,
      cacheWritePerMTok: 3.75,
      cacheReadPerMTok: 0.3,
    });
    // OpenAI: no write fee before GPT-5.6, cached input at the model's cached price.
    expect(priceFor('gpt-4o-mini', DEFAULT_PRICES)).toMatchObject({ cacheWritePerMTok: 0.15, cacheReadPerMTok: 0.075 });
    const price = DEFAULT_PRICES['claude-sonnet-4-5'];
    if (!price) throw new Error('no price');
    // 1,000 plain input, 2,000 written, 10,000 read, 100 output.
    const usage = { inputTokens: 13_000, outputTokens: 100, cacheWriteTokens: 2000, cacheReadTokens: 10_000 };
    expect(uncachedInputTokens(usage)).toBe(1000);
    expect(costOf(usage, price)).toBeCloseTo((1000 * 3 + 2000 * 3.75 + 10_000 * 0.3 + 100 * 15) / 1e6, 12);
    expect(maxInputPerMTok(price)).toBe(3.75);
  });

  it("fills cache rates an override leaves out: Anthropic's multipliers for Claude, the input price otherwise", () => {
    const table = mergePrices({
      'claude-custom': { inputPerMTok: 2, outputPerMTok: 10 },
      'my-model': { inputPerMTok: 1, outputPerMTok: 2 },
      'my-cached': { inputPerMTok: 1, outputPerMTok: 2, cacheReadPerMTok: 0.5 },
    });
    expect(priceFor('claude-custom', table)).toMatchObject({ cacheWritePerMTok: 2.5, cacheReadPerMTok: 0.2 });
    expect(priceFor('my-model', table)).toMatchObject({ cacheWritePerMTok: 1, cacheReadPerMTok: 1 });
    expect(priceFor('my-cached', table)).toMatchObject({ cacheWritePerMTok: 1, cacheReadPerMTok: 0.5 });
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

import { describe, expect, it } from 'vitest';
import { costUsd, DEFAULT_PRICES, mergePrices, priceFor } from './pricing.js';

describe('price table', () => {
  it('computes USD from input and output tokens per million', () => {
    // claude-sonnet-4-5: $3 in, $15 out per million tokens.
    expect(costUsd('claude-sonnet-4-5', 1_000_000, 0, DEFAULT_PRICES)).toBe(3);
    expect(costUsd('claude-sonnet-4-5', 2000, 500, DEFAULT_PRICES)).toBeCloseTo(0.006 + 0.0075, 10);
    expect(costUsd('gpt-4o-mini', 10_000, 1000, DEFAULT_PRICES)).toBeCloseTo(0.0015 + 0.0006, 10);
  });

  it('finds dated snapshots by their family, preferring the longest match', () => {
    expect(priceFor('claude-sonnet-4-5-20250929', DEFAULT_PRICES)).toEqual(DEFAULT_PRICES['claude-sonnet-4-5']);
    expect(priceFor('gpt-4o-mini-2024-07-18', DEFAULT_PRICES)).toEqual(DEFAULT_PRICES['gpt-4o-mini']);
    expect(priceFor('gpt-4o-2024-08-06', DEFAULT_PRICES)).toEqual(DEFAULT_PRICES['gpt-4o']);
    // 'claude-sonnet-5' is a prefix of 'claude-sonnet-5-5' but not its family.
    expect(priceFor('claude-sonnet-5-5', DEFAULT_PRICES)).toEqual({ inputPerMTok: 2, outputPerMTok: 10 });
    expect(priceFor('claude-opus-5-5', DEFAULT_PRICES)).toEqual({ inputPerMTok: 4, outputPerMTok: 20 });
  });

  it('gives no cost for an unknown model or missing token counts rather than a wrong one', () => {
    expect(costUsd('llama3.1:8b', 100, 100, DEFAULT_PRICES)).toBeNull();
    expect(costUsd('gpt-4o', null, 100, DEFAULT_PRICES)).toBeNull();
  });

  it('lets configuration override and extend the defaults', () => {
    const table = mergePrices({
      'llama3.1:8b': { inputPerMTok: 0, outputPerMTok: 0 },
      'gpt-4o': { inputPerMTok: 1, outputPerMTok: 2 },
    });
    expect(costUsd('llama3.1:8b', 100, 100, table)).toBe(0);
    expect(costUsd('gpt-4o', 1_000_000, 1_000_000, table)).toBe(3);
    expect(costUsd('claude-haiku-4-5', 1_000_000, 0, table)).toBe(1);
  });
});

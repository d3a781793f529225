import type { RetryPolicy } from '../../src/llm/retry.js';

/** A retry policy whose sleep returns at once and moves a fake clock, recording every wait. */
export function instantRetryPolicy(budgetMs = 2000): { policy: RetryPolicy; waits: number[] } {
  const waits: number[] = [];
  let now = 0;
  const policy: RetryPolicy = {
    budgetMs,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
    now: () => now,
    random: () => 0.5,
    baseDelayMs: 100,
    maxDelayMs: 1000,
  };
  return { policy, waits };
}

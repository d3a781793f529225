import { ChatModelError } from './errors.js';

/** How transient failures are retried; the sleep and clock are injectable so tests never wait. */
export interface RetryPolicy {
  /** Total time allowed for all attempts and waits, from the first attempt. */
  budgetMs: number;
  sleep: (ms: number) => Promise<void>;
  /** Milliseconds on a monotonic clock. */
  now: () => number;
  /** Uniform in [0, 1): spreads back-off so many participants hitting a 429 do not retry in step. */
  random: () => number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function defaultRetryPolicy(budgetMs: number): RetryPolicy {
  return {
    budgetMs,
    sleep: defaultSleep,
    now: () => performance.now(),
    random: Math.random,
    baseDelayMs: 500,
    maxDelayMs: 8000,
  };
}

/** Wait before attempt `attempt + 1`: the provider's retry-after if given, else jittered exponential back-off. */
export function backoffMs(policy: RetryPolicy, attempt: number, retryAfterMs: number | undefined): number {
  if (retryAfterMs !== undefined) return retryAfterMs;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling * (0.5 + policy.random() / 2));
}

/**
 * Runs `attempt` until it succeeds, retrying transient ChatModelErrors that happened before the first
 * token, as long as the wait still fits in the budget. Otherwise the last error is thrown, with
 * `attempts` set.
 */
export async function withRetry<T>(
  policy: RetryPolicy,
  attempt: (n: number) => Promise<T>,
  /**
   * A 429 or 529 (overloaded) is not retried here but thrown at once: the chat's provider queue waits the
   * provider's retry-after, shared by every process, without the retry budget's limit (docs/decisions/0076).
   */
  options: { deferRateLimits?: boolean | undefined } = {},
): Promise<T> {
  const started = policy.now();
  for (let n = 1; ; n += 1) {
    try {
      return await attempt(n);
    } catch (error) {
      if (!(error instanceof ChatModelError)) throw error;
      error.attempts = n;
      if (!error.transient || error.afterFirstToken) throw error;
      if (options.deferRateLimits && error.asksToWait) throw error;
      const wait = backoffMs(policy, n, error.options.retryAfterMs);
      if (policy.now() - started + wait > policy.budgetMs) throw error;
      await policy.sleep(wait);
    }
  }
}

import { ApiError } from '../../lib/api';

/** A 4xx reply will not change on a second try; network failures and 5xx may. */
function isRetryable(error: unknown): boolean {
  return !(error instanceof ApiError && error.status >= 400 && error.status < 500);
}

/**
 * Runs `task`, retrying once (or `retries` times) after a retryable failure, waiting `delayMs` times
 * the attempt number in between; rethrows the last error.
 */
export async function withRetry<T>(task: () => Promise<T>, retries = 1, delayMs = 0): Promise<T> {
  let attempt = 0;
  for (;;) {
    try {
      return await task();
    } catch (error) {
      if (attempt >= retries || !isRetryable(error)) throw error;
      attempt += 1;
      if (delayMs > 0) await new Promise((resolve) => window.setTimeout(resolve, delayMs * attempt));
    }
  }
}

/**
 * Runs `task` (which does its own retrying); a failure is only logged, for the writes the spec says
 * must not block the participant.
 */
export async function bestEffort(label: string, task: () => Promise<unknown>): Promise<void> {
  try {
    await task();
  } catch (error) {
    console.warn(`${label} failed`, error);
  }
}

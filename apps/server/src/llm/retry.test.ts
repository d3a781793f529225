import { describe, expect, it } from 'vitest';
import { instantRetryPolicy } from '../../test/fakes/retry-policy.js';
import { ChatModelError } from './errors.js';
import { backoffMs, withRetry } from './retry.js';

const transient = () => new ChatModelError('unavailable', 'down');

describe('retry policy', () => {
  it('backs off exponentially up to the maximum', () => {
    const { policy } = instantRetryPolicy();
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(policy, n, undefined))).toEqual([75, 150, 300, 600, 750]);
    expect(backoffMs(policy, 1, 1234)).toBe(1234);
  });

  it('retries transient failures until one succeeds', async () => {
    const { policy, waits } = instantRetryPolicy();
    let calls = 0;
    const result = await withRetry(policy, async () => {
      calls += 1;
      if (calls < 3) throw transient();
      return 'ok';
    });
    expect(result).toBe('ok');
    expect(waits).toEqual([75, 150]);
  });

  it('stops when the next wait would pass the budget, reporting the attempts', async () => {
    const { policy, waits } = instantRetryPolicy(500);
    const error = await withRetry(policy, async () => {
      throw transient();
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChatModelError);
    // 75 + 150 have been waited; another 300 would pass 500.
    expect((error as ChatModelError).attempts).toBe(3);
    expect(waits).toEqual([75, 150]);
  });

  it('never retries after the first token, a rejected request, or a time-out', async () => {
    for (const make of [
      () => Object.assign(transient(), { afterFirstToken: true }),
      () => new ChatModelError('rejected', 'bad'),
      () => new ChatModelError('timeout', 'slow'),
    ]) {
      const { policy, waits } = instantRetryPolicy();
      let calls = 0;
      await withRetry(policy, async () => {
        calls += 1;
        throw make();
      }).catch(() => undefined);
      expect(calls).toBe(1);
      expect(waits).toEqual([]);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { MAX_RESTART_DELAY_MS, restartDelayMs } from './cluster-primary.js';

describe('the cluster primary replacing workers', () => {
  it('replaces the first exit at once, then waits longer each time, up to a ceiling, and never gives up', () => {
    expect([1, 2, 3, 4, 5, 6].map(restartDelayMs)).toEqual([0, 1000, 2000, 4000, 8000, 16_000]);
    expect(restartDelayMs(7)).toBe(MAX_RESTART_DELAY_MS);
    expect(restartDelayMs(1000)).toBe(MAX_RESTART_DELAY_MS);
  });
});

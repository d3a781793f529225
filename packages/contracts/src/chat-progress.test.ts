import { describe, expect, it } from 'vitest';
import { chatPoints, chatProgress, chatRuleFor, isChatComplete, SPEC_CHAT_RULE } from './chat-progress.js';

describe('chat points and completeness', () => {
  it.each([
    [0, 0, 0],
    [1, 10, 15],
    [3, 140, 100],
    [2, 3, 21.5],
  ])('rounds %i and %i characters give %d points', (rounds, chars, points) => {
    expect(chatPoints(rounds, chars)).toBe(points);
  });

  it.each([
    [100, 3, true],
    [99.5, 3, false],
    [100, 2, false],
    [250, 2, false],
    [130, 4, true],
  ])('points %d with %i rounds: complete is %s', (points, rounds, complete) => {
    expect(isChatComplete(points, rounds)).toBe(complete);
  });

  it('counts trimmed characters of every message, one round each', () => {
    expect(chatProgress(['  hello  ', 'a'.repeat(100), ' x '])).toEqual({
      rounds: 3,
      chars: 106,
      points: 83,
      complete: false,
    });
    expect(chatProgress(['a'.repeat(60), 'b'.repeat(60), 'c'.repeat(20)])).toEqual({
      rounds: 3,
      chars: 140,
      points: 100,
      complete: true,
    });
  });
});

describe("a study's own completion rule", () => {
  it('is the spec rule for every part the study leaves out, and with no condition', () => {
    expect(chatRuleFor(undefined, 'mmr')).toEqual({ rounds: 3, points: 100 });
    expect(chatRuleFor({ control: { rounds: 1, points: 10 } }, 'mmr')).toEqual({ rounds: 3, points: 100 });
    expect(chatRuleFor({ control: { rounds: 1 } }, 'control')).toEqual({ rounds: 1, points: 100 });
    expect(chatRuleFor({ mmr: { points: 40 } }, 'mmr')).toEqual({ rounds: 3, points: 40 });
    expect(chatRuleFor({ mmr: { rounds: 1, points: 10 } }, null)).toEqual(SPEC_CHAT_RULE);
  });

  it.each([
    [10, 1, { rounds: 1, points: 10 }, true],
    [9.5, 1, { rounds: 1, points: 10 }, false],
    [500, 4, { rounds: 5, points: 0 }, false],
    [50, 5, { rounds: 5, points: 0 }, true],
  ])('points %d with %i rounds under %o: complete is %s', (points, rounds, rule, complete) => {
    expect(isChatComplete(points, rounds, rule)).toBe(complete);
  });

  it('completes a one-round chat under a one-round rule, not under the spec rule', () => {
    const rule = chatRuleFor({ control: { rounds: 1, points: 10 } }, 'control');
    expect(chatProgress(['hi'], rule)).toEqual({ rounds: 1, chars: 2, points: 11, complete: true });
    expect(chatProgress(['hi']).complete).toBe(false);
  });
});

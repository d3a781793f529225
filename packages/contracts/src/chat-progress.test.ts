import { describe, expect, it } from 'vitest';
import { chatPoints, chatProgress, isChatComplete } from './chat-progress.js';

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

import { describe, expect, it } from 'vitest';
import { chiSquareEqual, chiSquarePValue } from './srm.js';

describe('sample-ratio statistics', () => {
  it('computes chi-square against an equal split', () => {
    expect(chiSquareEqual([10, 10])).toBe(0);
    expect(chiSquareEqual([15, 5])).toBeCloseTo(5, 10);
    expect(chiSquareEqual([0, 0])).toBe(0);
  });

  it('gives the p-values of standard tables', () => {
    expect(chiSquarePValue(3.841, 1)).toBeCloseTo(0.05, 3);
    expect(chiSquarePValue(6.635, 1)).toBeCloseTo(0.01, 3);
    expect(chiSquarePValue(5, 1)).toBeCloseTo(0.0253, 3);
    expect(chiSquarePValue(5.991, 2)).toBeCloseTo(0.05, 3);
    expect(chiSquarePValue(0.5, 1)).toBeCloseTo(0.4795, 3);
    expect(chiSquarePValue(0, 1)).toBe(1);
  });
});

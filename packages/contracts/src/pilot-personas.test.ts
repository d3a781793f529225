import { describe, expect, it } from 'vitest';
import { PILOT_PARTICIPANTS_MAX, PILOT_STANCES, PILOT_VERBOSITIES, samplePersonas, seededRandom } from './index.js';

describe('pilot personas', () => {
  it('samples the same personas from the same seed, and others from another', () => {
    expect(samplePersonas(12, 7)).toEqual(samplePersonas(12, 7));
    expect(samplePersonas(12, 7)).not.toEqual(samplePersonas(12, 8));
    const a = seededRandom(3);
    const b = seededRandom(3);
    const draws = Array.from({ length: 5 }, () => a());
    expect(draws).toEqual(Array.from({ length: 5 }, () => b()));
    for (const d of draws) expect(d >= 0 && d < 1).toBe(true);
  });

  it('meets every stance and verbosity in a run of nine, with one in five inclined to leave', () => {
    const personas = samplePersonas(10, 1);
    expect(new Set(personas.slice(0, 9).map((p) => p.stance))).toEqual(new Set(PILOT_STANCES));
    expect(new Set(personas.slice(0, 9).map((p) => p.verbosity))).toEqual(new Set(PILOT_VERBOSITIES));
    expect(personas.map((p) => p.leaveTendency >= 0.5)).toEqual([
      false,
      false,
      false,
      false,
      true,
      false,
      false,
      false,
      false,
      true,
    ]);
  });

  it('keeps the count within 0 and the most a run may have', () => {
    expect(samplePersonas(500, 1)).toHaveLength(PILOT_PARTICIPANTS_MAX);
    expect(samplePersonas(-2, 1)).toEqual([]);
  });
});

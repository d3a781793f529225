import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toIso, toMillis } from './values.js';

describe('timestamp values', () => {
  it('reads canonical ISO text to the same milliseconds as Date.parse, for any time from year 100 to 9999', () => {
    const times = fc.integer({ min: Date.UTC(100, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) });
    fc.assert(
      fc.property(times, (ms) => {
        const text = new Date(ms).toISOString();
        expect(toMillis(text)).toBe(ms);
        expect(toMillis(text)).toBe(Date.parse(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads other forms, early years and Dates as Date.parse and getTime do', () => {
    for (const text of [
      '2026-11-23T07:36:48Z',
      '2026-11-23T08:36:48.120+01:00',
      '0050-01-02T03:04:05.006Z',
      'nonsense',
    ]) {
      expect(Object.is(toMillis(text), Date.parse(text))).toBe(true);
    }
    const date = new Date('2026-11-23T07:36:48.123Z');
    expect(toMillis(date)).toBe(date.getTime());
    expect(toIso(date)).toBe('2026-11-23T07:36:48.123Z');
    expect(toIso('2026-11-23T08:36:48.12+01:00')).toBe('2026-11-23T07:36:48.120Z');
  });
});

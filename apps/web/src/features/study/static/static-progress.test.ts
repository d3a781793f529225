import { describe, expect, it } from 'vitest';
import { experimentKeys } from '../../../lib/storage-keys';
import {
  canAdvance,
  progressPercent,
  reachedBottom,
  readProgress,
  remainingSeconds,
  sectionSeconds,
  sectionStartTime,
  writeProgress,
} from './static-progress';

const EXP = 'exp-1';
const T0 = Date.UTC(2026, 10, 21, 9, 0, 0);

describe('section countdown', () => {
  it.each([
    { case: 'not started', startedAt: null, now: T0, completed: false, expected: 20 },
    { case: 'just started', startedAt: T0, now: T0, completed: false, expected: 20 },
    { case: 'part-way, rounds up', startedAt: T0, now: T0 + 7_400, completed: false, expected: 13 },
    { case: 'one ms left shows 1', startedAt: T0, now: T0 + 19_999, completed: false, expected: 1 },
    { case: 'exactly done', startedAt: T0, now: T0 + 20_000, completed: false, expected: 0 },
    { case: 'long past', startedAt: T0, now: T0 + 600_000, completed: false, expected: 0 },
    { case: 'clock behind the start', startedAt: T0, now: T0 - 5_000, completed: false, expected: 20 },
    { case: 'completed section', startedAt: T0, now: T0, completed: true, expected: 0 },
    { case: 'completed, never started', startedAt: null, now: T0, completed: true, expected: 0 },
  ])('$case', ({ startedAt, now, completed, expected }) => {
    expect(remainingSeconds(20, startedAt, now, completed)).toBe(expected);
  });

  it('uses 30 seconds when a section sets no valid minimum', () => {
    expect(sectionSeconds({ minSeconds: 40 })).toBe(40);
    expect(sectionSeconds({ minSeconds: 0 })).toBe(30);
    expect(sectionSeconds({ minSeconds: Number.NaN })).toBe(30);
  });
});

describe('scroll and button rules', () => {
  it.each([
    { case: 'content fits on screen', bottom: 500, viewport: 740, expected: true },
    { case: 'end exactly at the viewport bottom', bottom: 740, viewport: 740, expected: true },
    { case: 'within 20 px', bottom: 760, viewport: 740, expected: true },
    { case: '21 px below', bottom: 761, viewport: 740, expected: false },
    { case: 'far below', bottom: 2400, viewport: 740, expected: false },
  ])('reachedBottom: $case', ({ bottom, viewport, expected }) => {
    expect(reachedBottom(bottom, viewport)).toBe(expected);
  });

  it('enables the button only when time is 0 and the end was reached', () => {
    expect(canAdvance(0, true)).toBe(true);
    expect(canAdvance(0, false)).toBe(false);
    expect(canAdvance(1, true)).toBe(false);
    expect(canAdvance(5, false)).toBe(false);
  });

  it.each([
    { status: [false, false, false, false], expected: 0 },
    { status: [true, false, false, false], expected: 25 },
    { status: [true, true, true, false], expected: 75 },
    { status: [true, true, true, true], expected: 100 },
    { status: [true, false, false], expected: 33 },
    { status: [true, true, false], expected: 66 },
    { status: [], expected: 0 },
  ])('progress $status is $expected%', ({ status, expected }) => {
    expect(progressPercent(status)).toBe(expected);
  });
});

describe('reload-safe progress in local storage', () => {
  const keys = experimentKeys(EXP);

  it('starts at the first section with nothing completed', () => {
    expect(readProgress(EXP, 4)).toEqual({ currentSection: 0, sectionStatus: [false, false, false, false] });
  });

  it('round-trips through the spec key names', () => {
    writeProgress(EXP, { currentSection: 2, sectionStatus: [true, true, false, false] });
    expect(localStorage.getItem('experiment_exp-1_currentSection')).toBe('2');
    expect(JSON.parse(localStorage.getItem('experiment_exp-1_sectionStatus') ?? '')).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(readProgress(EXP, 4)).toEqual({ currentSection: 2, sectionStatus: [true, true, false, false] });
  });

  it('tolerates malformed or out-of-range values', () => {
    localStorage.setItem(keys.sectionStatus, '{not json');
    localStorage.setItem(keys.currentSection, '9');
    expect(readProgress(EXP, 4)).toEqual({ currentSection: 0, sectionStatus: [false, false, false, false] });
    localStorage.setItem(keys.sectionStatus, JSON.stringify([true, 'yes', true]));
    localStorage.setItem(keys.currentSection, 'abc');
    expect(readProgress(EXP, 4)).toEqual({ currentSection: 1, sectionStatus: [true, false, true, false] });
  });

  it('stores a section start time once and keeps it across reloads', () => {
    expect(sectionStartTime(EXP, 1, T0)).toBe(T0);
    expect(localStorage.getItem('experiment_exp-1_sectionStartTime_1')).toBe(String(T0));
    expect(sectionStartTime(EXP, 1, T0 + 9_000)).toBe(T0);
    expect(remainingSeconds(20, sectionStartTime(EXP, 1, T0 + 9_000), T0 + 9_000, false)).toBe(11);
  });
});

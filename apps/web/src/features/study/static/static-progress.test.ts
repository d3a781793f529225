import { describe, expect, it } from 'vitest';
import { experimentKeys } from '../../../lib/storage-keys';
import type { Journey } from '@studychat/contracts/web';
import { readSectionClock, reportedSeconds, secondsLeft, startClock, tick, writeSectionClock } from './section-clock';
import {
  canAdvance,
  progressFromJourney,
  progressPercent,
  reachedBottom,
  readProgress,
  writeProgress,
  writeSectionStart,
} from './static-progress';

const EXP = 'exp-1';

describe('visible-time countdown', () => {
  const fresh = { remainingMs: 20_000, visibleMs: 0, hiddenMs: 0 };

  it('counts down only while the page is visible, and keeps both times', () => {
    const a = tick(fresh, 7_400, true);
    expect(a).toEqual({ remainingMs: 12_600, visibleMs: 7_400, hiddenMs: 0 });
    expect(secondsLeft(a)).toBe(13);
    const b = tick(a, 60_000, false);
    expect(b).toEqual({ remainingMs: 12_600, visibleMs: 7_400, hiddenMs: 60_000 });
    const c = tick(b, 30_000, true);
    expect(c).toEqual({ remainingMs: 0, visibleMs: 37_400, hiddenMs: 60_000 });
    expect(secondsLeft(c)).toBe(0);
    expect(tick(c, -5_000, true)).toEqual(c);
    expect(secondsLeft({ ...fresh, remainingMs: 1 })).toBe(1);
  });

  it("starts from the server's remaining time, or from more if this device still had more to count", () => {
    expect(startClock(12_000, null)).toEqual({ remainingMs: 12_000, visibleMs: 0, hiddenMs: 0 });
    expect(startClock(-5, null).remainingMs).toBe(0);
    // Hidden before a reload: the device had 15 s still to count, the server only 5 s.
    const cached = { remainingMs: 15_000, visibleMs: 5_000, hiddenMs: 10_000 };
    expect(startClock(5_000, cached)).toEqual(cached);
    // The server says more is left (e.g. the section was opened on another device just now).
    expect(startClock(18_000, cached)).toEqual({ ...cached, remainingMs: 18_000 });
  });

  it('reports seconds with one decimal, within a day', () => {
    expect(reportedSeconds(15_049)).toBe(15);
    expect(reportedSeconds(15_050)).toBe(15.1);
    expect(reportedSeconds(10 * 86_400_000)).toBe(86_400);
  });

  it('caches the clock per section and ignores anything malformed', () => {
    writeSectionClock(EXP, 2, { remainingMs: 3_000, visibleMs: 17_000, hiddenMs: 4_000 });
    expect(readSectionClock(EXP, 2)).toEqual({ remainingMs: 3_000, visibleMs: 17_000, hiddenMs: 4_000 });
    expect(readSectionClock(EXP, 3)).toBeNull();
    localStorage.setItem('experiment_exp-1_sectionClock_3', '{"remainingMs":-1,"visibleMs":0,"hiddenMs":0}');
    expect(readSectionClock(EXP, 3)).toBeNull();
    localStorage.setItem('experiment_exp-1_sectionClock_3', 'not json');
    expect(readSectionClock(EXP, 3)).toBeNull();
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

  it("takes the server's progress: sections finished in time, the current one, and caches the opening time", () => {
    const section = (finishedAt: string | null, remainingMs: number) => ({
      index: 0,
      id: 's',
      minSeconds: 20,
      openedAt: '2026-11-21T09:00:00.000Z',
      finishedAt,
      remainingSeconds: Math.ceil(remainingMs / 1000),
      remainingMs,
      visibleSeconds: null,
      hiddenSeconds: null,
    });
    const journey = {
      currentSection: 2,
      sections: [section('2026-11-21T09:00:20.000Z', 0), section('2026-11-21T09:00:40.000Z', 0), section(null, 8_000)],
    } as unknown as Journey;
    expect(progressFromJourney(journey, 4)).toEqual({ currentSection: 2, sectionStatus: [true, true, false, false] });
    writeSectionStart(EXP, 2, '2026-11-21T09:00:00.000Z', '2026-11-21T09:00:12.000Z');
    expect(Number(localStorage.getItem('experiment_exp-1_sectionStartTime_2'))).toBeCloseTo(Date.now() - 12_000, -2);
  });
});

import { experimentKeys } from '../../../lib/storage-keys';

/** A section's countdown on this device: it runs only while the page is visible (Page Visibility API). */
export interface SectionClock {
  /** Visible milliseconds still to count before the section may be finished. */
  remainingMs: number;
  /** Milliseconds the page was visible / hidden while the section was shown. */
  visibleMs: number;
  hiddenMs: number;
}

/** Time passing on the page: visible time counts down and adds to visibleMs; hidden time only to hiddenMs. */
export function tick(clock: SectionClock, elapsedMs: number, visible: boolean): SectionClock {
  const ms = Math.max(0, elapsedMs);
  return visible
    ? { remainingMs: Math.max(0, clock.remainingMs - ms), visibleMs: clock.visibleMs + ms, hiddenMs: clock.hiddenMs }
    : { ...clock, hiddenMs: clock.hiddenMs + ms };
}

/**
 * Where a section's countdown starts on this page: the server's remaining time (the same on every device),
 * unless this device still had more to count (time hidden before a reload still does not count).
 */
export function startClock(serverRemainingMs: number, cached: SectionClock | null): SectionClock {
  if (!cached) return { remainingMs: Math.max(0, serverRemainingMs), visibleMs: 0, hiddenMs: 0 };
  return { ...cached, remainingMs: Math.max(serverRemainingMs, cached.remainingMs) };
}

/** Whole seconds shown on the countdown. */
export const secondsLeft = (clock: SectionClock) => Math.ceil(clock.remainingMs / 1000);

/** Milliseconds as the seconds the server stores (one decimal, within the contract's bound of a day). */
export const reportedSeconds = (ms: number) => Math.min(86_400, Math.round(ms / 100) / 10);

export function readSectionClock(experimentId: string, index: number): SectionClock | null {
  try {
    const parsed = JSON.parse(
      localStorage.getItem(experimentKeys(experimentId).sectionClock(index)) ?? 'null',
    ) as Partial<SectionClock> | null;
    const ok = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;
    if (!parsed || !ok(parsed.remainingMs) || !ok(parsed.visibleMs) || !ok(parsed.hiddenMs)) return null;
    return { remainingMs: parsed.remainingMs, visibleMs: parsed.visibleMs, hiddenMs: parsed.hiddenMs };
  } catch {
    return null;
  }
}

export function writeSectionClock(experimentId: string, index: number, clock: SectionClock): void {
  try {
    localStorage.setItem(experimentKeys(experimentId).sectionClock(index), JSON.stringify(clock));
  } catch {
    // Storage full or blocked: the server's times still hold.
  }
}

import { DEFAULT_SECTION_SECONDS, type StaticSection } from '@studychat/contracts/web';
import { experimentKeys } from '../../../lib/storage-keys';

/** Scrolled-to-bottom threshold in pixels (spec section 9). */
export const SCROLL_THRESHOLD_PX = 20;
/** First scroll check after a section appears, and the resize debounce (spec section 9). */
export const SCROLL_CHECK_DELAY_MS = 100;
export const RESIZE_DEBOUNCE_MS = 150;

/** A section's minimum seconds; 30 when unset or invalid. */
export function sectionSeconds(section: Pick<StaticSection, 'minSeconds'>): number {
  return Number.isFinite(section.minSeconds) && section.minSeconds > 0 ? section.minSeconds : DEFAULT_SECTION_SECONDS;
}

/** Whole seconds left on a section's countdown: 0 once completed, the full time before it starts. */
export function remainingSeconds(
  minSeconds: number,
  startedAt: number | null,
  now: number,
  completed: boolean,
): number {
  if (completed) return 0;
  if (startedAt === null) return minSeconds;
  const elapsed = Math.max(0, now - startedAt) / 1000;
  return Math.max(0, Math.ceil(minSeconds - elapsed));
}

/**
 * Whether the end of the section is in view (within the threshold): true both after scrolling down
 * and when the section fits on screen and needs no scrolling.
 */
export function reachedBottom(contentBottom: number, viewportHeight: number, threshold = SCROLL_THRESHOLD_PX): boolean {
  return contentBottom - viewportHeight <= threshold;
}

/** The section button is enabled only when time is up and the section was scrolled (or needed no scroll). */
export function canAdvance(remaining: number, scrolled: boolean): boolean {
  return remaining === 0 && scrolled;
}

/** Completed sections over total, as a whole percentage rounded down. */
export function progressPercent(status: readonly boolean[]): number {
  if (status.length === 0) return 0;
  return Math.floor((status.filter(Boolean).length / status.length) * 100);
}

export interface StaticProgress {
  currentSection: number;
  sectionStatus: boolean[];
}

/** Reads reload-safe progress from local storage, tolerating missing or malformed values. */
export function readProgress(experimentId: string, total: number): StaticProgress {
  const keys = experimentKeys(experimentId);
  let sectionStatus: boolean[] = Array.from({ length: total }, () => false);
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(keys.sectionStatus) ?? 'null');
    if (Array.isArray(parsed)) sectionStatus = sectionStatus.map((_, i) => parsed[i] === true);
  } catch {
    // Malformed: start from no completed sections.
  }
  const stored = Number.parseInt(localStorage.getItem(keys.currentSection) ?? '', 10);
  const firstOpen = sectionStatus.findIndex((done) => !done);
  const fallback = firstOpen === -1 ? Math.max(0, total - 1) : firstOpen;
  const currentSection = Number.isInteger(stored) && stored >= 0 && stored < total ? stored : fallback;
  return { currentSection, sectionStatus };
}

export function writeProgress(experimentId: string, progress: StaticProgress): void {
  const keys = experimentKeys(experimentId);
  localStorage.setItem(keys.currentSection, String(progress.currentSection));
  localStorage.setItem(keys.sectionStatus, JSON.stringify(progress.sectionStatus));
}

/** The stored start time of a section, writing `now` first when it has none (the countdown starts once). */
export function sectionStartTime(experimentId: string, index: number, now: number): number {
  const key = experimentKeys(experimentId).sectionStartTime(index);
  const stored = Number(localStorage.getItem(key));
  if (Number.isFinite(stored) && stored > 0) return stored;
  localStorage.setItem(key, String(now));
  return now;
}

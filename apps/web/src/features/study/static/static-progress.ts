import type { Journey } from '@studychat/contracts/web';
import { experimentKeys } from '../../../lib/storage-keys';

/** Scrolled-to-bottom threshold in pixels (spec section 9). */
export const SCROLL_THRESHOLD_PX = 20;
/** First scroll check after a section appears, and the resize debounce (spec section 9). */
export const SCROLL_CHECK_DELAY_MS = 100;
export const RESIZE_DEBOUNCE_MS = 150;

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

/** Progress as the server records it: a section is reviewed once the server accepted it as finished in time. */
export function progressFromJourney(journey: Journey, total: number): StaticProgress {
  const sectionStatus = Array.from({ length: total }, (_, i) => {
    const section = journey.sections[i];
    return section !== undefined && section.finishedAt !== null && section.remainingMs === 0;
  });
  const firstOpen = sectionStatus.findIndex((done) => !done);
  const current = journey.currentSection ?? (firstOpen === -1 ? Math.max(0, total - 1) : firstOpen);
  return { currentSection: Math.min(current, Math.max(0, total - 1)), sectionStatus };
}

/** Caches when the server opened a section, in this device's clock (spec section 3's start time). */
export function writeSectionStart(experimentId: string, index: number, openedAt: string, serverTime: string): void {
  const local = Date.now() - (Date.parse(serverTime) - Date.parse(openedAt));
  if (Number.isFinite(local)) localStorage.setItem(experimentKeys(experimentId).sectionStartTime(index), String(local));
}

import type { Journey } from '@studychat/contracts/web';

// The journey a write's reply carried (docs/decisions/0068): the page that made the write moves on at once, and
// the next page's guard takes this journey instead of reading it again. In memory only (a reload or another
// device reads the server), for the one guard that mounts next, and only while fresh; the server still refuses any write out of order.

const FRESH_MS = 30_000;
let handed: { journey: Journey; at: number } | null = null;

/** Keeps the journey a write's reply carried (nothing when the reply had none). */
export function rememberJourney(journey: Journey | undefined): void {
  if (journey) handed = { journey, at: Date.now() };
}

/**
 * The journey the last write handed over for this experiment; null when there is none or it is stale. Pure (a
 * render may call it twice): the guard that looked forgets it once mounted (`forgetJourney`).
 */
export function peekRememberedJourney(experimentId: string): Journey | null {
  if (!handed || handed.journey.experimentId !== experimentId || Date.now() - handed.at > FRESH_MS) return null;
  return handed.journey;
}

/** Forgets the handed journey: the guard that looked at it, once mounted (it serves one page), and tests. */
export function forgetJourney(): void {
  handed = null;
}

import type { Journey } from '@studychat/contracts/web';

// The journey a write's reply carried (docs/decisions/0068): the page that made the write moves on at once, and
// the next page's guard takes this journey instead of reading it again. In memory only (a reload or another
// device reads the server), taken once, and only while fresh; the server still refuses any write out of order.

const FRESH_MS = 30_000;
let handed: { journey: Journey; at: number } | null = null;

/** Keeps the journey a write's reply carried (nothing when the reply had none). */
export function rememberJourney(journey: Journey | undefined): void {
  if (journey) handed = { journey, at: Date.now() };
}

/** The journey the last write handed over for this experiment, once; null when there is none or it is stale. */
export function takeRememberedJourney(experimentId: string): Journey | null {
  const taken = handed;
  handed = null;
  if (!taken || taken.journey.experimentId !== experimentId || Date.now() - taken.at > FRESH_MS) return null;
  return taken.journey;
}

/** Forgets the handed journey (tests). */
export function forgetJourney(): void {
  handed = null;
}

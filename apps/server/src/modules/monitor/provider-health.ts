import { PROVIDER_HEALTH_PERIODS, type ProviderHealthPeriod, type ProviderHealthReply } from '@studychat/contracts';

// The model provider's health over recent periods (issue 32, docs/decisions/0076), as a pure rule over the
// experiment's assistant replies as stored: an error, a wait for the provider (queue_ms), a fallback model.

export interface ReplyHealthRow {
  status: string;
  queue_ms: number | null;
  fallback_from: string | null;
  created_at: Date | string;
}

function median(sorted: readonly number[]): number | null {
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  const at = (i: number) => sorted[i] ?? 0;
  const value = sorted.length % 2 === 1 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
  return Math.round(value);
}

function period(rows: readonly ReplyHealthRow[], now: Date, minutes: number): ProviderHealthPeriod {
  const since = now.getTime() - minutes * 60_000;
  const within = rows.filter((r) => new Date(r.created_at).getTime() >= since);
  const waits = within
    .map((r) => r.queue_ms ?? 0)
    .filter((ms) => ms > 0)
    .sort((a, b) => a - b);
  return {
    minutes,
    replies: within.length,
    // A reply still streaming is not yet a failure; an interrupted one was ended by the participant leaving.
    errors: within.filter((r) => r.status === 'error').length,
    waited: waits.length,
    waitMedianMs: median(waits),
    waitMaxMs: waits.length > 0 ? Math.round(Math.max(...waits)) : null,
    fallbacks: within.filter((r) => r.fallback_from !== null).length,
  };
}

/** Each period's counts, back from now (the longest period's rows cover the shorter ones). */
export function providerHealth(
  rows: readonly ReplyHealthRow[],
  now: Date,
  periods: readonly number[] = PROVIDER_HEALTH_PERIODS,
): ProviderHealthReply {
  return { periods: periods.map((minutes) => period(rows, now, minutes)) };
}

/** How far back the replies are read: the longest period. */
export const PROVIDER_HEALTH_MINUTES = Math.max(...PROVIDER_HEALTH_PERIODS);

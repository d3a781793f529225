import { readFileSync } from 'node:fs';

// The default connection ceiling (MAX_CONNECTIONS, docs/decisions/0019 and 0043): a margin below the
// process's open-file limit, so the ceiling protects file handles without closing connections the process
// could hold. The journey bench's 1,000 participants each hold a connection, as browsers do; under load they
// overlap, and a fixed 800 closed the rest unanswered (issue 16: every PostgreSQL failure was one of those).

/** File handles kept for the database, static files, logs and the cluster's channel. */
export const HANDLE_MARGIN = 224;
/** The ceiling when the open-file limit cannot be read (not Linux): fits the common limit of 1,024. */
export const FALLBACK_CEILING = 800;
const LOWEST_CEILING = 64;

/** The ceiling for a soft open-file limit as /proc/self/limits states it ("Max open files  <soft>  <hard>  files"). */
export function ceilingFromLimits(limits: string | undefined): number {
  const soft = limits?.match(/^Max open files\s+(\d+|unlimited)\s/m)?.[1];
  if (soft === undefined) return FALLBACK_CEILING;
  if (soft === 'unlimited') return 65_536;
  return Math.max(LOWEST_CEILING, Number(soft) - HANDLE_MARGIN);
}

/** The default MAX_CONNECTIONS of this process. */
export function defaultMaxConnections(): number {
  let limits: string | undefined;
  try {
    limits = readFileSync('/proc/self/limits', 'utf8');
  } catch {
    limits = undefined;
  }
  return ceilingFromLimits(limits);
}

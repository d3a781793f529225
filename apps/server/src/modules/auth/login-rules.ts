// The login limits as pure rules over a counter (docs/decisions/0017-login-limits.md); login-limiter.ts
// applies them to the database with compare-and-set, before the password is checked.

export interface Counter {
  attempts: number;
  windowStart: Date;
  blockedUntil: Date | null;
  updatedAt: Date;
}

export type Decision = { allowed: true; next: Counter } | { allowed: false; retryAfterMs: number };

/** Attempts per account+address pair before delays start. */
export const FREE_ATTEMPTS_PER_PAIR = 5;
/** The first delay; each further failed attempt doubles it, up to the cap. */
export const FIRST_DELAY_MS = 1000;
export const MAX_DELAY_MS = 15 * 60 * 1000;
/** A pair that has been quiet this long starts afresh: an owner is never slowed by old typos. */
export const PAIR_IDLE_RESET_MS = 60 * 60 * 1000;

/** Attempts per account and hour from addresses that have never logged in to it (all of them together). */
export const ACCOUNT_CEILING = 50;
export const ACCOUNT_WINDOW_MS = 60 * 60 * 1000;

/**
 * Failed attempts per address and window across every account (one password sprayed over many accounts), on
 * accounts that do not know the address. Failures only: a success gives its unit back. A lab or campus behind
 * one address is stopped only after 100 failed logins within 15 minutes, and then waits for the window's end at
 * most; its members' own devices keep working (docs/decisions/0074-hardening.md).
 */
export const ADDRESS_CEILING = 100;
export const ADDRESS_WINDOW_MS = 15 * 60 * 1000;

/** An address the account logged in from this recently is the owner's: exempt from the account and address ceilings. */
export const KNOWN_ADDRESS_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** The wait after the n-th attempt of a pair (should it fail): none for the first few, then doubling. */
export function pairDelayMs(attempts: number): number {
  if (attempts < FREE_ATTEMPTS_PER_PAIR) return 0;
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(attempts - FREE_ATTEMPTS_PER_PAIR, 30));
}

/** May one more attempt be made from this account+address pair now, and how does its counter change? */
export function decidePair(counter: Counter | undefined, now: Date): Decision {
  const fresh = !counter || now.getTime() - counter.updatedAt.getTime() >= PAIR_IDLE_RESET_MS;
  if (!fresh && counter.blockedUntil && counter.blockedUntil > now) {
    return { allowed: false, retryAfterMs: counter.blockedUntil.getTime() - now.getTime() };
  }
  const attempts = fresh ? 1 : counter.attempts + 1;
  const delay = pairDelayMs(attempts);
  return {
    allowed: true,
    next: {
      attempts,
      windowStart: fresh ? now : counter.windowStart,
      blockedUntil: delay > 0 ? new Date(now.getTime() + delay) : null,
      updatedAt: now,
    },
  };
}

/** May one more attempt be made on this account from an address it does not know? */
export function decideAccount(counter: Counter | undefined, now: Date): Decision {
  const windowEnd = counter ? counter.windowStart.getTime() + ACCOUNT_WINDOW_MS : 0;
  if (!counter || now.getTime() >= windowEnd) {
    return { allowed: true, next: { attempts: 1, windowStart: now, blockedUntil: null, updatedAt: now } };
  }
  if (counter.attempts >= ACCOUNT_CEILING) return { allowed: false, retryAfterMs: windowEnd - now.getTime() };
  return { allowed: true, next: { ...counter, attempts: counter.attempts + 1, updatedAt: now } };
}

/** How long an address at its ceiling waits: until its window ends. */
export function addressWaitMs(windowStart: Date, now: Date): number {
  return Math.max(1000, windowStart.getTime() + ADDRESS_WINDOW_MS - now.getTime());
}

/** "5 seconds", "1 minute", "15 minutes": how long to wait, rounded up. */
export function describeWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/**
 * The key an address is counted under: IPv4 as it is, IPv6 by its /64 (one subscriber usually holds a
 * whole /64, so rotating within it must not give fresh attempts); IPv4-mapped IPv6 as IPv4.
 */
export function addressKeyOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (!ip.includes(':')) return ip;
  const [head = '', tail = ''] = ip.split('%')[0]?.split('::') ?? [];
  const headParts = head ? head.split(':') : [];
  const tailParts = ip.includes('::') && tail ? tail.split(':') : [];
  const missing = 8 - headParts.length - tailParts.length;
  const groups = ip.includes('::')
    ? [...headParts, ...Array<string>(Math.max(0, missing)).fill('0'), ...tailParts]
    : headParts;
  return `${groups
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}

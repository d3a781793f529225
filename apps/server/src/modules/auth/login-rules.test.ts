import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_CEILING,
  ACCOUNT_WINDOW_MS,
  ADDRESS_WINDOW_MS,
  addressKeyOf,
  addressWaitMs,
  decideAccount,
  decidePair,
  describeWait,
  FREE_ATTEMPTS_PER_PAIR,
  MAX_DELAY_MS,
  PAIR_IDLE_RESET_MS,
  pairDelayMs,
  type Counter,
} from './login-rules.js';

const t0 = new Date('2026-11-20T10:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

/** Runs attempts through a rule at the given times; the decisions in order. */
function run(decide: typeof decidePair, times: number[]) {
  let counter: Counter | undefined;
  return times.map((ms) => {
    const decision = decide(counter, at(ms));
    if (decision.allowed) counter = decision.next;
    return decision;
  });
}

describe('pair rule (account + address)', () => {
  it('allows the first attempts freely, then makes each further attempt wait twice as long', () => {
    expect(Array.from({ length: 12 }, (_, i) => pairDelayMs(i + 1))).toEqual([
      0, 0, 0, 0, 1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000,
    ]);
    expect(pairDelayMs(40)).toBe(MAX_DELAY_MS);
  });

  it('refuses attempts inside the delay with the time left, and allows the next one after it', () => {
    const free = run(decidePair, Array<number>(FREE_ATTEMPTS_PER_PAIR).fill(0));
    expect(free.every((d) => d.allowed)).toBe(true);
    const [blocked] = run(decidePair, [...Array<number>(FREE_ATTEMPTS_PER_PAIR).fill(0), 400]).slice(-1);
    expect(blocked).toEqual({ allowed: false, retryAfterMs: 600 });
    const decisions = run(decidePair, [0, 0, 0, 0, 0, 1000, 2999, 3000]);
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, true, false, true]);
  });

  it('starts afresh once the pair has been quiet for the reset period', () => {
    const times = [
      ...Array<number>(8)
        .fill(0)
        .map((_, i) => i * MAX_DELAY_MS),
      8 * MAX_DELAY_MS + PAIR_IDLE_RESET_MS,
    ];
    const last = run(decidePair, times).at(-1);
    expect(last).toMatchObject({ allowed: true, next: { attempts: 1, blockedUntil: null } });
  });
});

describe('account rule (addresses the account does not know)', () => {
  it('allows the ceiling per window, then refuses until the window ends', () => {
    const decisions = run(decideAccount, [...Array<number>(ACCOUNT_CEILING).fill(0), 10_000]);
    expect(decisions.slice(0, ACCOUNT_CEILING).every((d) => d.allowed)).toBe(true);
    expect(decisions.at(-1)).toEqual({ allowed: false, retryAfterMs: ACCOUNT_WINDOW_MS - 10_000 });
    const after = run(decideAccount, [...Array<number>(ACCOUNT_CEILING).fill(0), ACCOUNT_WINDOW_MS]).at(-1);
    expect(after).toMatchObject({ allowed: true, next: { attempts: 1 } });
  });
});

describe('address rule (failures across accounts)', () => {
  it('waits for the end of the window the ceiling was reached in, at least a second', () => {
    expect(addressWaitMs(t0, at(60_000))).toBe(ADDRESS_WINDOW_MS - 60_000);
    expect(addressWaitMs(t0, at(ADDRESS_WINDOW_MS))).toBe(1000);
  });
});

describe('helpers', () => {
  it('describes a wait in whole seconds or minutes, rounded up', () => {
    expect(describeWait(1)).toBe('1 second');
    expect(describeWait(1500)).toBe('2 seconds');
    expect(describeWait(60_000)).toBe('1 minute');
    expect(describeWait(61_000)).toBe('2 minutes');
    expect(describeWait(MAX_DELAY_MS)).toBe('15 minutes');
  });

  it('counts IPv4 as it is, IPv4-mapped IPv6 as IPv4, and IPv6 by its /64', () => {
    expect(addressKeyOf('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKeyOf('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKeyOf('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressKeyOf('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKeyOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKeyOf('::1')).toBe('0:0:0:0::/64');
    expect(addressKeyOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});

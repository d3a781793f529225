import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { TEST_DIALECTS } from '../../test/databases.js';
import { ACCOUNT_CEILING, ADDRESS_CEILING, FREE_ATTEMPTS_PER_PAIR } from '../modules/auth/login-rules.js';
import { createUser } from '../modules/users/users.service.js';

// The login race of the probe: 500 parallel admin logins, 499 wrong and 1 right. Attempts are reserved
// in the database before the password is checked, so no more than the limit ever reach the check.

const PARALLEL = 500;
const PASSWORD = 'the-right-admin-password';

describe.each(TEST_DIALECTS)('parallel login guesses on %s', (dialect) => {
  const t = useTestApp(dialect, { config: { trustProxy: ['127.0.0.1'] } });

  async function race(email: string, addressOf: (i: number) => string, withRight = true) {
    const right = withRight ? Math.floor(Math.random() * PARALLEL) : -1;
    const replies = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        t().app.inject({
          method: 'POST',
          url: '/api/auth/login',
          headers: { 'x-forwarded-for': addressOf(i) },
          payload: { email, password: i === right ? PASSWORD : `wrong-${i}` },
        }),
      ),
    );
    const count = (status: number) => replies.filter((r) => r.statusCode === status).length;
    // Nothing else: no 5xx (the hashing queue is big enough for what passes the limit).
    expect(count(200) + count(401) + count(429)).toBe(PARALLEL);
    return { checked: count(200) + count(401), loggedIn: count(200), rightReply: replies[right] };
  }

  it('lets at most the free attempts of one address through to the password check', async () => {
    const email = `admin-pair-${dialect}@lab.test`;
    await createUser(t().deps, { email, password: PASSWORD, isAdmin: true });
    const { checked, loggedIn } = await race(email, () => '203.0.113.5', false);
    // Without a success nothing clears the pair: one allowance at most (under contention some are refused early).
    expect(checked).toBeLessThanOrEqual(FREE_ATTEMPTS_PER_PAIR);
    expect(checked).toBeGreaterThan(0);
    expect(loggedIn).toBe(0);
  });

  it('with the right password among the guesses: it gets in only if checked, and its success clears the pair once', async () => {
    const email = `admin-pair-right-${dialect}@lab.test`;
    await createUser(t().deps, { email, password: PASSWORD, isAdmin: true });
    const { checked, loggedIn, rightReply } = await race(email, () => '203.0.113.6');
    // The right password got in only if it was among the attempts checked; otherwise it waited like the rest.
    expect([200, 429]).toContain(rightReply?.statusCode);
    expect(loggedIn).toBe(rightReply?.statusCode === 200 ? 1 : 0);
    expect(checked).toBeGreaterThan(0);
    // A success clears its pair (docs/decisions/0017): guesses reserved after it, while the race still runs, start
    // a new allowance. So at most one more allowance after the one success, and none without it.
    expect(checked).toBeLessThanOrEqual(FREE_ATTEMPTS_PER_PAIR * (1 + loggedIn));
  });

  it('lets at most the account ceiling through when every guess comes from a different address', async () => {
    const email = `admin-ceiling-${dialect}@lab.test`;
    await createUser(t().deps, { email, password: PASSWORD, isAdmin: true });
    const { checked, loggedIn } = await race(email, (i) => `198.18.${Math.floor(i / 250)}.${i % 250}`);
    expect(checked).toBeLessThanOrEqual(ACCOUNT_CEILING);
    expect(checked).toBeGreaterThan(0);
    // Under contention some attempts are refused early (never wrongly let through): the guesses that
    // follow, one by one from yet more addresses, use up exactly what is left of the ceiling.
    let later = 0;
    for (let i = 0; i <= ACCOUNT_CEILING; i++) {
      const next = await t().app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'x-forwarded-for': `192.0.2.${i}` },
        payload: { email, password: 'another-guess' },
      });
      if (next.statusCode === 429) break;
      expect(next.statusCode).toBe(401);
      later += 1;
    }
    expect(checked - loggedIn + later).toBe(ACCOUNT_CEILING);
  });

  it('lets exactly the address ceiling through when one address sprays one password over 500 accounts at once', async () => {
    // Study-shaped emails are checked against a keyed hash at once (no hashing queue): only the ceilings limit them.
    const replies = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        t().app.inject({
          method: 'POST',
          url: '/api/auth/login',
          headers: { 'x-forwarded-for': '203.0.113.77' },
          payload: { email: `study-race${i}-${dialect}@studychat.local`, password: 'Summer2026!' },
        }),
      ),
    );
    const statuses = replies.map((r) => r.statusCode);
    // Counted by one atomic statement per attempt: parallel attempts wait for one another, none is lost or let by.
    expect(statuses.filter((s) => s === 401)).toHaveLength(ADDRESS_CEILING);
    expect(statuses.filter((s) => s === 429)).toHaveLength(PARALLEL - ADDRESS_CEILING);
  });
});

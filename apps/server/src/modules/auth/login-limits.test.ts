import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  createAndLogin,
  createTestApp,
  expectJson,
  testConfig,
  useTestApp,
  type TestApp,
  type TestUser,
} from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { insertUserRow } from '../../../test/factories.js';
import { hashGeneratedPassword } from '../users/password.js';
import { createUser } from '../users/users.service.js';
import { accountKey, addressKey, pairKey } from './login-limiter.js';
import { ACCOUNT_CEILING, ADDRESS_CEILING, ADDRESS_WINDOW_MS, FREE_ATTEMPTS_PER_PAIR } from './login-rules.js';

// The login limits through the real route (docs/decisions/0017-login-limits.md). The test app trusts
// X-Forwarded-For from inject's own address, so each test picks the client address it speaks from.

function loginFrom(t: TestApp, address: string, email: string, password: string): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'x-forwarded-for': address },
    payload: { email, password },
  });
}

async function attempts(t: TestApp, key: string): Promise<number | undefined> {
  const row = await t.database.db
    .selectFrom('login_throttles')
    .select('attempts')
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.attempts;
}

describe.each(TEST_DIALECTS)('login limits on %s', (dialect) => {
  const t = useTestApp(dialect, { config: { trustProxy: ['127.0.0.1'] } });

  async function user(): Promise<TestUser> {
    return createAndLogin(t());
  }

  it('lets an account+address pair try a few times, then makes it wait longer and longer, even for the right password', async () => {
    const owner = await user();
    const here = '198.51.100.10';
    for (let i = 0; i < FREE_ATTEMPTS_PER_PAIR; i++) {
      expect((await loginFrom(t(), here, owner.email, 'wrong')).statusCode).toBe(401);
    }
    const blocked = await loginFrom(t(), here, owner.email, owner.password);
    expect(expectJson(blocked, 429)).toEqual({
      error: 'Too many failed login attempts. Please wait 1 second and try again.',
      code: 'RATE_LIMITED',
    });
    expect(blocked.headers['retry-after']).toBe('1');

    t().clock.advance(1000);
    expect((await loginFrom(t(), here, owner.email, 'wrong')).statusCode).toBe(401);
    const longer = await loginFrom(t(), here, owner.email, owner.password);
    expect(longer.statusCode).toBe(429);
    expect(longer.headers['retry-after']).toBe('2');

    t().clock.advance(2000);
    expect((await loginFrom(t(), here, owner.email, owner.password)).statusCode).toBe(200);
    // A success clears the pair: the owner starts afresh.
    expect(await attempts(t(), pairKey(owner.email, here))).toBeUndefined();
  });

  it('does not slow the owner at their address when someone guesses from another', async () => {
    const owner = await user();
    for (let i = 0; i < FREE_ATTEMPTS_PER_PAIR + 3; i++) await loginFrom(t(), '203.0.113.66', owner.email, 'guess');
    expect((await loginFrom(t(), '203.0.113.66', owner.email, owner.password)).statusCode).toBe(429);
    expect((await loginFrom(t(), '198.51.100.20', owner.email, owner.password)).statusCode).toBe(200);
  });

  it('caps guesses on one account from addresses it does not know, but never locks out its known address', async () => {
    const owner = await user();
    const home = '198.51.100.30';
    expect((await loginFrom(t(), home, owner.email, owner.password)).statusCode).toBe(200);
    // A botnet: every address has its own free attempts, but together they meet the account ceiling.
    let checked = 0;
    for (let i = 0; i < ACCOUNT_CEILING + 20; i++) {
      const res = await loginFrom(t(), `203.0.${Math.floor(i / 200)}.${i % 200}`, owner.email, `guess-${i}`);
      if (res.statusCode === 401) checked += 1;
      else expect(res.statusCode).toBe(429);
    }
    expect(checked).toBe(ACCOUNT_CEILING);
    const fromNewPlace = await loginFrom(t(), '192.0.2.77', owner.email, owner.password);
    expect(expectJson<{ error: string }>(fromNewPlace, 429).error).toMatch(
      /^Too many failed login attempts for this account\. Please wait \d+ minutes, or log in from a device you have used before\.$/,
    );
    expect((await loginFrom(t(), home, owner.email, owner.password)).statusCode).toBe(200);
    t().clock.advance(60 * 60 * 1000);
    expect((await loginFrom(t(), '192.0.2.77', owner.email, owner.password)).statusCode).toBe(200);
  });

  it('does not lock out a participant who shares an address with someone trying many accounts', async () => {
    const shared = '198.51.100.40';
    for (let i = 0; i < 60; i++) {
      expect((await loginFrom(t(), shared, `spray${i}-${dialect}@study.test`, 'nope')).statusCode).toBe(401);
    }
    const participant = await user();
    expect((await loginFrom(t(), shared, participant.email, participant.password)).statusCode).toBe(200);
  });

  it('limits unknown emails exactly like real ones, so the replies do not reveal which exist', async () => {
    const real = await user();
    const ghost = `ghost-${dialect}@study.test`;
    const replies = async (email: string) => {
      const out: { status: number; body: string; retry: unknown }[] = [];
      for (let i = 0; i < FREE_ATTEMPTS_PER_PAIR + 1; i++) {
        const res = await loginFrom(t(), '198.51.100.50', email, 'wrong');
        out.push({ status: res.statusCode, body: res.body, retry: res.headers['retry-after'] });
      }
      return out;
    };
    expect(await replies(ghost)).toEqual(await replies(real.email));
  });

  it('refuses a forged X-Forwarded-For from an address that is not a trusted proxy', async () => {
    const untrusted = await createTestApp(dialect, { config: { trustProxy: [] } });
    try {
      const owner = await createAndLogin(untrusted);
      for (let i = 0; i < FREE_ATTEMPTS_PER_PAIR; i++) {
        await loginFrom(untrusted, `203.0.113.${i}`, owner.email, 'wrong');
      }
      // Each forged header named a new address, but the server counted the real one.
      expect(await attempts(untrusted, pairKey(owner.email, '127.0.0.1'))).toBe(FREE_ATTEMPTS_PER_PAIR);
      expect((await loginFrom(untrusted, '203.0.113.200', owner.email, owner.password)).statusCode).toBe(429);
    } finally {
      await untrusted.app.close();
      await untrusted.database.close();
    }
  });

  /** A generated study login (a keyed hash: checked at once, no hashing queue). */
  async function studyLogin(name: string): Promise<{ email: string; password: string }> {
    const email = `study-${name}-${dialect}@studychat.local`;
    const password = `Kx7pQ2mZr9TwV4nY-${name}`;
    await insertUserRow(t().database.db, {
      email,
      password_hash: hashGeneratedPassword(password, testConfig().passwordPepper),
    });
    return { email, password };
  }

  it('stops one password sprayed over 200 accounts from one address after the address ceiling, until its window ends', async () => {
    const sprayer = '198.51.100.70';
    // A participant who logged in from that address before (a lab member's own device): known, never stopped.
    const member = await studyLogin('member');
    expect((await loginFrom(t(), sprayer, member.email, member.password)).statusCode).toBe(200);
    const newcomer = await studyLogin('newcomer');

    const statuses: number[] = [];
    let refused: LightMyRequestResponse | undefined;
    for (let i = 0; i < 200; i++) {
      const res = await loginFrom(t(), sprayer, `study-spray${i}-${dialect}@studychat.local`, 'Summer2026!');
      statuses.push(res.statusCode);
      refused ??= res.statusCode === 429 ? res : undefined;
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(ADDRESS_CEILING);
    expect(statuses.slice(ADDRESS_CEILING).every((s) => s === 429)).toBe(true);
    expect(expectJson(refused as LightMyRequestResponse, 429)).toEqual({
      error:
        'Too many failed login attempts from your network. Please wait 15 minutes, or log in from a device you have used before.',
      code: 'RATE_LIMITED',
    });
    expect(refused?.headers['retry-after']).toBe(String(ADDRESS_WINDOW_MS / 1000));

    // The ceiling is the address's: the newcomer waits there, not elsewhere; the member's known device works.
    expect((await loginFrom(t(), sprayer, newcomer.email, newcomer.password)).statusCode).toBe(429);
    expect((await loginFrom(t(), '198.51.100.71', newcomer.email, newcomer.password)).statusCode).toBe(200);
    expect((await loginFrom(t(), sprayer, member.email, member.password)).statusCode).toBe(200);

    t().clock.advance(ADDRESS_WINDOW_MS);
    const another = await studyLogin('next-window');
    expect((await loginFrom(t(), sprayer, another.email, another.password)).statusCode).toBe(200);
    expect((await loginFrom(t(), sprayer, 'study-spray-again@studychat.local', 'Summer2026!')).statusCode).toBe(401);
  });

  it('counts failures only: a lab logging in from one address uses none of its ceiling', async () => {
    const lab = '198.51.100.80';
    const members = await Promise.all(
      Array.from({ length: ADDRESS_CEILING + 20 }, (_, i) => studyLogin(`lab${String(i)}`)),
    );
    for (const [i, m] of members.entries()) {
      // Every tenth member mistypes once first.
      if (i % 10 === 0) expect((await loginFrom(t(), lab, m.email, 'typo')).statusCode).toBe(401);
      expect((await loginFrom(t(), lab, m.email, m.password)).statusCode).toBe(200);
    }
    expect(await attempts(t(), addressKey(lab))).toBe(Math.ceil(members.length / 10));
  });

  it('counts attempts on the account only from addresses it does not know', async () => {
    const owner = await user();
    const home = '198.51.100.60';
    await loginFrom(t(), home, owner.email, owner.password);
    // The first login from home was counted until it succeeded, then given back.
    await loginFrom(t(), home, owner.email, 'typo');
    expect(await attempts(t(), accountKey(owner.email))).toBe(0);
    await loginFrom(t(), '192.0.2.61', owner.email, 'guess');
    expect(await attempts(t(), accountKey(owner.email))).toBe(1);
  });
});

describe.each(TEST_DIALECTS)('password checks when the hashing queue is full, on %s', (dialect) => {
  // No slot and no room to wait: every slow (argon2) check is refused at once.
  const t = useTestApp(dialect, { config: { hashConcurrency: 0, hashQueueLimit: 0 } });

  it('answers 503 SERVICE_BUSY with Retry-After, and the attempt does not count', async () => {
    const email = `admin-${dialect}@lab.test`;
    await createUser(t().deps, { email, password: 'a-long-admin-password', isAdmin: true });
    for (let i = 0; i < FREE_ATTEMPTS_PER_PAIR + 2; i++) {
      const res = await loginFrom(t(), '127.0.0.1', email, 'a-long-admin-password');
      expect(expectJson(res, 503)).toEqual({
        error: 'The server is busy checking other logins. Please try again in a moment.',
        code: 'SERVICE_BUSY',
      });
      expect(res.headers['retry-after']).toBe('2');
    }
    expect(await attempts(t(), pairKey(email, '127.0.0.1'))).toBe(0);
  });

  it('still checks generated study passwords (a keyed hash, no queue), and study-shaped unknown emails alike', async () => {
    const email = `study-abcdefgh-${dialect}@studychat.local`;
    const password = 'Kx7pQ2mZr9TwV4nY';
    await insertUserRow(t().database.db, {
      email,
      password_hash: hashGeneratedPassword(password, testConfig().passwordPepper),
    });
    expect((await loginFrom(t(), '127.0.0.1', email, password)).statusCode).toBe(200);
    expect((await loginFrom(t(), '127.0.0.1', `study-zzzzzzzz-${dialect}@studychat.local`, password)).statusCode).toBe(
      401,
    );
    expect((await loginFrom(t(), '127.0.0.1', `someone-${dialect}@lab.test`, password)).statusCode).toBe(503);
  });
});

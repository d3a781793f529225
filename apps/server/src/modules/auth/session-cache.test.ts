import { afterAll, describe, expect, it } from 'vitest';
import { createAndLogin, createTestApp, newSession } from '../../../test/app.js';
import { dropTestSchemas, TEST_DIALECTS } from '../../../test/databases.js';
import { twoInstances as twoInstancesOf } from '../../../test/two-instances.js';
import { SessionCache, SESSION_CACHE_TTL_MS } from './session-cache.js';

afterAll(dropTestSchemas);

// Any authenticated read will do: the caller's security settings.
const READ = 'GET';
const securityUrl = '/api/auth/security';

describe('SessionCache', () => {
  const now = new Date('2026-11-20T10:00:00.000Z');
  const session = { userId: 'u1', restricted: false, expiresAt: '2026-11-20T11:00:00.000Z' };

  it('keeps a session for a few seconds, never past its own expiry', () => {
    const cache = new SessionCache();
    cache.store('s1', session, cache.ticket(), 1000);
    expect(cache.get('s1', now, 1000 + SESSION_CACHE_TTL_MS - 1)).toMatchObject(session);
    expect(cache.get('s1', now, 1000 + SESSION_CACHE_TTL_MS)).toBeUndefined();
    cache.store('s1', session, cache.ticket(), 1000);
    expect(cache.get('s1', new Date(session.expiresAt), 1000)).toBeUndefined();
  });

  it('a read that started before a revocation does not store what it read', () => {
    const cache = new SessionCache();
    const ticket = cache.ticket();
    cache.evict({ sessionId: 's1' });
    cache.store('s1', session, ticket, 1000);
    expect(cache.get('s1', now, 1000)).toBeUndefined();
  });

  it('evicts one session, or every session of an account', () => {
    const cache = new SessionCache();
    cache.store('s1', session, cache.ticket(), 1000);
    cache.store('s2', session, cache.ticket(), 1000);
    cache.store('s3', { ...session, userId: 'u2' }, cache.ticket(), 1000);
    cache.evict({ sessionId: 's1' });
    expect(cache.get('s1', now, 1000)).toBeUndefined();
    expect(cache.get('s2', now, 1000)).toBeDefined();
    cache.evict({ userId: 'u1' });
    expect(cache.get('s2', now, 1000)).toBeUndefined();
    expect(cache.get('s3', now, 1000)).toBeDefined();
  });
});

describe.each(TEST_DIALECTS)('session check with two app instances on one database (%s)', (dialect) => {
  const twoInstances = () => twoInstancesOf(dialect);

  it('a logout on one instance is refused at once on the other, whose check was cached', async () => {
    const { a, b, close } = await twoInstances();
    try {
      const user = await createAndLogin(a);
      for (const t of [a, b, a, b]) {
        expect((await t.app.inject({ method: READ, url: securityUrl, headers: user.headers })).statusCode).toBe(200);
      }
      expect((await a.app.inject({ method: 'POST', url: '/api/auth/logout', headers: user.headers })).statusCode).toBe(
        200,
      );
      for (const t of [b, a]) {
        expect((await t.app.inject({ method: READ, url: securityUrl, headers: user.headers })).statusCode).toBe(401);
      }
    } finally {
      await close();
    }
  });

  it('log out everywhere on one instance ends every session of the account on the other at once', async () => {
    const { a, b, close } = await twoInstances();
    try {
      const user = await createAndLogin(a);
      const second = await newSession(a, user, 'participant');
      for (const u of [user, second]) {
        expect((await b.app.inject({ method: READ, url: securityUrl, headers: u.headers })).statusCode).toBe(200);
      }
      const out = await a.app.inject({ method: 'POST', url: '/api/auth/logout-all', headers: user.headers });
      expect(out.statusCode).toBe(200);
      for (const u of [second, user]) {
        expect((await b.app.inject({ method: READ, url: securityUrl, headers: u.headers })).statusCode).toBe(401);
      }
    } finally {
      await close();
    }
  });

  it('reads the session once while it is cached (SQLite), every time on PostgreSQL', async () => {
    const t = await createTestApp(dialect);
    try {
      const user = await createAndLogin(t);
      const sessionReads: string[] = [];
      t.database.queries.onQuery = (statement) => {
        if (/from "sessions"/.test(statement)) sessionReads.push(statement);
      };
      for (let i = 0; i < 3; i++) {
        expect((await t.app.inject({ method: READ, url: securityUrl, headers: user.headers })).statusCode).toBe(200);
      }
      expect(sessionReads).toHaveLength(dialect === 'sqlite' ? 1 : 3);
    } finally {
      t.database.queries.onQuery = undefined;
      await t.app.close();
      await t.database.close();
    }
  });
});

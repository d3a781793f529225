import { describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, useTestApp } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { createUser } from '../users/users.service.js';
import { TokenSigner } from './token.js';

describe.each(TEST_DIALECTS)('auth routes on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('logs in with the right password, returns token and user, and records last_login_at', async () => {
    const user = await createAndLogin(t());
    const row = await t()
      .database.db.selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.last_login_at).not.toBeNull();
    const [, payload] = user.token.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ userId: user.id, email: user.email, isAdmin: false });
    expect(typeof claims.exp).toBe('number');
  });

  it('treats the email case-insensitively', async () => {
    const user = await createAndLogin(t());
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email.toUpperCase(), password: user.password },
    });
    expect(expectJson<{ user: { id: string } }>(res, 200).user.id).toBe(user.id);
  });

  it('answers a wrong password and an unknown email alike with 401 Invalid email or password', async () => {
    const user = await createAndLogin(t());
    for (const payload of [
      { email: user.email, password: 'wrong-password' },
      { email: 'nobody@study.test', password: 'whatever' },
    ]) {
      const res = await t().app.inject({ method: 'POST', url: '/api/auth/login', payload });
      expect(expectJson(res, 401)).toEqual({ error: 'Invalid email or password', code: 'INVALID_CREDENTIALS' });
    }
  });

  it('logout revokes the token: later calls with it get 401', async () => {
    const user = await createAndLogin(t());
    const out = await t().app.inject({ method: 'POST', url: '/api/auth/logout', headers: user.headers });
    expect(expectJson(out, 200)).toEqual({ ok: true });
    const again = await t().app.inject({ method: 'POST', url: '/api/auth/logout', headers: user.headers });
    expect(expectJson<{ code: string }>(again, 401).code).toBe('UNAUTHENTICATED');
  });

  it('refuses a missing, malformed, forged or expired token with 401', async () => {
    const user = await createAndLogin(t());
    const forged = await new TokenSigner('another-secret-another-secret-another-secret').sign(
      { userId: user.id, email: user.email, isAdmin: true },
      'session',
      t().clock.now,
      3600,
    );
    for (const authorization of [undefined, 'Bearer', 'Basic abc', 'Bearer not-a-jwt', `Bearer ${forged}`]) {
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode).toBe(401);
    }
    t().clock.advance(2 * 3600 * 1000);
    const expired = await t().app.inject({ method: 'POST', url: '/api/auth/logout', headers: user.headers });
    expect(expired.statusCode).toBe(401);
  });

  it('answers bad input with 400 and { error, code }, never 500', async () => {
    const cases = [
      { payload: '{"email":', contentType: 'application/json' },
      { payload: '', contentType: 'application/json' },
      { payload: JSON.stringify({ email: 'a@b.co' }), contentType: 'application/json' },
      { payload: JSON.stringify({ email: 'not-an-email', password: 'x' }), contentType: 'application/json' },
      { payload: JSON.stringify({ email: 5, password: ['x'] }), contentType: 'application/json' },
      { payload: JSON.stringify([1, 2]), contentType: 'application/json' },
    ];
    for (const c of cases) {
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': c.contentType },
        payload: c.payload,
      });
      expect(res.statusCode).toBe(400);
      const body = res.json<{ error: string; code: string }>();
      expect(body.error.length).toBeGreaterThan(0);
      expect(['BAD_REQUEST', 'VALIDATION_FAILED']).toContain(body.code);
    }
  });

  it('answers an oversized body with 413', async () => {
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'a@b.co', password: 'x'.repeat(200_000) },
    });
    expect(expectJson(res, 413)).toEqual({ error: 'Request body is too large', code: 'PAYLOAD_TOO_LARGE' });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(expectJson<{ code: string }>(res, 404).code).toBe('NOT_FOUND');
  });

  it('reports health with database reachability', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/health' });
    expect(expectJson(res, 200)).toEqual({
      status: 'ok',
      database: { dialect, reachable: true },
      llmProvider: 'scripted',
    });
  });

  it('stores users so that the same email cannot be registered twice', async () => {
    const user = await createAndLogin(t());
    await expect(createUser(t().deps, { email: user.email, password: 'x', isAdmin: false })).rejects.toThrow(
      /already exists/,
    );
  });
});

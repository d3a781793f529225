import { describe, expect, it } from 'vitest';
import type { AuditPage, SecurityStatus, TotpSetup } from '@studychat/contracts';
import { createAndLogin, expectJson, useTestApp, type TestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { insertMemberRow } from '../../../test/factories.js';
import { createExperiment, participantAt, send } from '../participants/journey.fixtures.js';
import { createUser } from '../users/users.service.js';
import { totpCode } from './totp.js';

type ErrorBody = { error: string; code: string };

function login(t: TestApp, user: { email: string; password: string }, totp?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: user.email, password: user.password, ...(totp ? { totp } : {}) },
  });
}

function claims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
}

/** Sets up and enables TOTP for a logged-in account; the secret. */
async function enrol(t: TestApp, user: TestUser): Promise<string> {
  const setup = expectJson<TotpSetup>(await send(t, user, 'POST', '/api/auth/totp/setup'), 200);
  const enabled = await send(t, user, 'POST', '/api/auth/totp/enable', { code: totpCode(setup.secret, t.clock.now) });
  expect(expectJson<SecurityStatus>(enabled, 200).totpEnabled).toBe(true);
  // The code just used is spent: later logins need the next one.
  t.clock.advance(30_000);
  return setup.secret;
}

async function analyst(t: TestApp): Promise<TestUser> {
  const email = `analyst-${crypto.randomUUID().slice(0, 8)}@lab.test`;
  const password = 'an-analyst-password';
  const { id } = await createUser(t.deps, { email, password, isAdmin: false, role: 'analyst' });
  const token = expectJson<{ token: string }>(await login(t, { email, password }), 200).token;
  return { id, email, password, token, headers: { authorization: `Bearer ${token}` } };
}

describe.each(TEST_DIALECTS)('two-factor authentication on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('enrols with a secret shown once, then asks every login for a current code, never the same one twice', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const setup = expectJson<TotpSetup>(await send(t(), admin, 'POST', '/api/auth/totp/setup'), 200);
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.otpauthUrl).toMatch(/^otpauth:\/\/totp\/StudyChat:.+\?.*secret=[A-Z2-7]{32}/);
    // Stored encrypted: the database does not hold the secret.
    const row = await t()
      .database.db.selectFrom('users')
      .select('totp_secret')
      .where('id', '=', admin.id)
      .executeTakeFirstOrThrow();
    expect(row.totp_secret).not.toContain(setup.secret);
    // Not yet on: logins still need no code.
    expect((await login(t(), admin)).statusCode).toBe(200);

    const wrong = await send(t(), admin, 'POST', '/api/auth/totp/enable', { code: '000000' });
    expect(expectJson<ErrorBody>(wrong, 400).code).toBe('TOTP_INVALID');
    const code = totpCode(setup.secret, t().clock.now);
    expect(expectJson<SecurityStatus>(await send(t(), admin, 'POST', '/api/auth/totp/enable', { code }), 200)).toEqual({
      role: 'admin',
      totpEnabled: true,
      totpRequired: false,
    });
    expect((await send(t(), admin, 'POST', '/api/auth/totp/setup')).statusCode).toBe(409);

    const noCode = await login(t(), admin);
    expect(expectJson(noCode, 401)).toEqual({
      error: 'Enter the 6-digit code from your authenticator app.',
      code: 'TOTP_REQUIRED',
    });
    // The code used to enable is spent, even within its 30 seconds.
    expect(expectJson<ErrorBody>(await login(t(), admin, code), 401).code).toBe('TOTP_INVALID');
    t().clock.advance(30_000);
    const next = totpCode(setup.secret, t().clock.now);
    expect((await login(t(), admin, next)).statusCode).toBe(200);
    expect(expectJson<ErrorBody>(await login(t(), admin, next), 401).code).toBe('TOTP_INVALID');
    // A wrong password with a right code is still just a wrong password.
    t().clock.advance(30_000);
    const res = await login(t(), { ...admin, password: 'wrong' }, totpCode(setup.secret, t().clock.now));
    expect(expectJson<ErrorBody>(res, 401).code).toBe('INVALID_CREDENTIALS');
  });

  it('turns two-factor off only with a current code', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const secret = await enrol(t(), admin);
    expect((await send(t(), admin, 'POST', '/api/auth/totp/disable', { code: '123456' })).statusCode).toBe(400);
    const off = await send(t(), admin, 'POST', '/api/auth/totp/disable', { code: totpCode(secret, t().clock.now) });
    expect(expectJson<SecurityStatus>(off, 200).totpEnabled).toBe(false);
    expect((await login(t(), admin)).statusCode).toBe(200);
  });

  it('is for admin accounts only', async () => {
    const participant = await createAndLogin(t());
    expect((await send(t(), participant, 'POST', '/api/auth/totp/setup')).statusCode).toBe(403);
  });

  it('logs an account out everywhere: every session of it ends, others stay', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const second = expectJson<{ token: string }>(await login(t(), admin), 200).token;
    const other = await createAndLogin(t(), { isAdmin: true });
    const out = await send(t(), admin, 'POST', '/api/auth/logout-all');
    expect(expectJson(out, 200)).toEqual({ ok: true, revoked: 2 });
    for (const authorization of [admin.headers.authorization, `Bearer ${second}`]) {
      const res = await t().app.inject({ method: 'GET', url: '/api/admin/users', headers: { authorization } });
      expect(res.statusCode).toBe(401);
    }
    expect((await send(t(), other, 'GET', '/api/admin/users')).statusCode).toBe(200);
  });
});

describe.each(TEST_DIALECTS)('two-factor authentication required by the server, on %s', (dialect) => {
  const t = useTestApp(dialect, { config: { adminTotpRequired: true } });

  it('lets an admin without it in only to set it up, then everywhere; it cannot be turned off', async () => {
    const email = `admin-${dialect}@lab.test`;
    const password = 'a-long-admin-password';
    const { id } = await createUser(t().deps, { email, password, isAdmin: true });
    const result = expectJson<{ token: string; totpEnrolmentRequired?: boolean }>(
      await login(t(), { email, password }),
      200,
    );
    expect(result.totpEnrolmentRequired).toBe(true);
    const admin: TestUser = {
      id,
      email,
      password,
      token: result.token,
      headers: { authorization: `Bearer ${result.token}` },
    };
    const blocked = await send(t(), admin, 'GET', '/api/admin/users');
    expect(expectJson<ErrorBody>(blocked, 403).code).toBe('TOTP_ENROLMENT_REQUIRED');
    expect(expectJson<SecurityStatus>(await send(t(), admin, 'GET', '/api/auth/security'), 200)).toEqual({
      role: 'admin',
      totpEnabled: false,
      totpRequired: true,
    });
    const secret = await enrol(t(), admin);
    expect((await send(t(), admin, 'GET', '/api/admin/users')).statusCode).toBe(200);
    const off = await send(t(), admin, 'POST', '/api/auth/totp/disable', { code: totpCode(secret, t().clock.now) });
    expect(off.statusCode).toBe(409);
  });

  it('does not ask participants for it', async () => {
    const participant = await createAndLogin(t());
    expect((await send(t(), participant, 'GET', `/api/participants/status/${crypto.randomUUID()}`)).statusCode).toBe(
      200,
    );
  });
});

describe.each(TEST_DIALECTS)('the read-only analyst role on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('sees the admin area and its exports, edits nothing and makes no logins; the token keeps isAdmin false', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const experiment = await createExperiment(t(), admin);
    const participant = await participantAt(t(), experiment.id, 'joined');
    const viewer = await analyst(t());
    expect(claims(viewer.token)).toMatchObject({ isAdmin: false, role: 'analyst' });
    // The experiment is its creator's (docs/decisions/0087): shared with the analyst as a viewer.
    await insertMemberRow(t().database.db, experiment.id, viewer.id, 'viewer');

    for (const url of [
      '/api/admin/users',
      `/api/admin/users/${participant.id}`,
      `/api/admin/users/${participant.id}/assignments`,
      '/api/experiments',
      `/api/experiments/${experiment.id}`,
      `/api/experiments/${experiment.id}/participant-summary`,
      `/api/experiments/${experiment.id}/participants-detailed`,
      `/api/experiments/${experiment.id}/export/participants.csv`,
      '/api/admin/system',
    ]) {
      expect((await send(t(), viewer, 'GET', url)).statusCode, url).toBe(200);
    }
    const edits: ['POST' | 'PUT', string, unknown][] = [
      ['POST', '/api/experiments', { name: 'Mine' }],
      ['PUT', `/api/experiments/${experiment.id}`, { name: 'Renamed' }],
      ['PUT', `/api/experiments/${experiment.id}/completion-codes`, { codes: { complete: 'X' } }],
      ['POST', `/api/experiments/${experiment.id}/batch-credentials`, { count: 1 }],
    ];
    for (const [method, url, body] of edits) {
      expect(expectJson<ErrorBody>(await send(t(), viewer, method, url, body), 403).code, url).toBe('FORBIDDEN');
    }
    expect((await send(t(), viewer, 'GET', '/api/admin/audit-log')).statusCode).toBe(403);
  });
});

describe.each(TEST_DIALECTS)('the audit log on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('records who did what to what and when, for edits, logins made, exports and views of a participant', async () => {
    // The clock moves a second after each action, so the newest-first order is the order of the actions.
    const tick = () => t().clock.advance(1000);
    const admin = await createAndLogin(t(), { isAdmin: true });
    const experiment = await createExperiment(t(), admin);
    // The experiment is its creator's (docs/decisions/0087): the analyst reads its participants as a viewer.
    const viewer = await analyst(t());
    expectJson(
      await send(t(), admin, 'POST', `/api/experiments/${experiment.id}/members`, {
        email: viewer.email,
        role: 'viewer',
      }),
      201,
    );
    tick();
    expectJson(await send(t(), admin, 'PUT', `/api/experiments/${experiment.id}`, { name: 'Renamed' }), 200);
    tick();
    expectJson(
      await send(t(), admin, 'POST', `/api/experiments/${experiment.id}/batch-credentials`, { count: 2 }),
      201,
    );
    tick();
    expect((await send(t(), admin, 'GET', `/api/experiments/${experiment.id}/export/messages.csv`)).statusCode).toBe(
      200,
    );
    tick();
    const participant = await participantAt(t(), experiment.id, 'joined');
    expectJson(await send(t(), admin, 'GET', `/api/admin/users/${participant.id}`), 200);
    tick();
    expectJson(await send(t(), viewer, 'GET', `/api/admin/users/${participant.id}/survey-responses`), 200);

    const page = expectJson<AuditPage>(await send(t(), admin, 'GET', '/api/admin/audit-log'), 200);
    const summary = page.entries.map((e) => [e.actor_email, e.action, e.target_type, e.target_id, e.details]);
    expect(summary.slice(0, 5)).toEqual([
      [viewer.email, 'participant.view', 'user', participant.id, { view: 'survey responses' }],
      [admin.email, 'participant.view', 'user', participant.id, { view: 'profile' }],
      [admin.email, 'export.download', 'experiment', experiment.id, { file: 'messages.csv' }],
      [admin.email, 'credentials.generate', 'experiment', experiment.id, { count: 2 }],
      [admin.email, 'experiment.update', 'experiment', experiment.id, { fields: ['name'] }],
    ]);
    // Created, given its codes and shared in the same second: the same time, in any order.
    expect(summary.slice(5).sort((x, y) => String(x[1]).localeCompare(String(y[1])))).toEqual([
      [
        admin.email,
        'experiment.codes.update',
        'experiment',
        experiment.id,
        { codes: ['complete', 'exitceiling', 'exitnoqualms'] },
      ],
      [admin.email, 'experiment.create', 'experiment', experiment.id, null],
      [admin.email, 'experiment.member.add', 'experiment', experiment.id, { user_id: viewer.id, role: 'viewer' }],
    ]);
    expect(page.entries.every((e) => e.actor_id.length === 36 && !Number.isNaN(Date.parse(e.created_at)))).toBe(true);
    // Never the values: no code and no password in the log.
    expect(JSON.stringify(page)).not.toContain('CODE-COMPLETE');
    expect(page.next).toBeNull();
  });

  it('pages newest first with a cursor', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    for (let i = 0; i < 5; i++) {
      await send(t(), admin, 'POST', '/api/experiments', { name: `Study ${i}` });
      t().clock.advance(1000);
    }
    const first = expectJson<AuditPage>(await send(t(), admin, 'GET', '/api/admin/audit-log?limit=2'), 200);
    expect(first.entries).toHaveLength(2);
    expect(first.next).not.toBeNull();
    const rest = expectJson<AuditPage>(
      await send(t(), admin, 'GET', `/api/admin/audit-log?limit=100&cursor=${encodeURIComponent(first.next ?? '')}`),
      200,
    );
    const all = [...first.entries, ...rest.entries].map((e) => e.created_at);
    expect(all).toEqual([...all].sort().reverse());
    expect(new Set([...first.entries, ...rest.entries].map((e) => e.id)).size).toBe(all.length);
    expect((await send(t(), admin, 'GET', '/api/admin/audit-log?cursor=nonsense')).statusCode).toBe(400);
  });
});

import type { AuditPage, CreatedStaff, StaffMember } from '@studychat/contracts';
import { describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, useTestApp, type TestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { changeStaffRole, removeStaffAccount } from '../users/users.service.js';
import { send as call } from '../participants/journey.fixtures.js';

// People of the admin area (issue 34): admins and analysts added with a one-time password, their role changed,
// removed and their two-factor reset by another admin; each change audited; never the last admin.

async function login(t: TestApp, email: string, password: string): Promise<TestUser> {
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  const { token, user } = expectJson<{ token: string; user: { id: string } }>(res, 200);
  return { id: user.id, email, password, token, headers: { authorization: `Bearer ${token}` } };
}

async function audit(t: TestApp, admin: TestUser, action: string) {
  const page = expectJson<AuditPage>(await call(t, admin, 'GET', '/api/admin/audit-log?limit=200'), 200);
  return page.entries.filter((e) => e.action === action);
}

let counter = 0;
const newEmail = (what: string) => `${what}-${++counter}-${crypto.randomUUID().slice(0, 8)}@lab.test`;

describe.each(TEST_DIALECTS)('people of the admin area on %s', (dialect) => {
  const t = useTestApp(dialect);

  async function add(admin: TestUser, role: 'admin' | 'analyst'): Promise<CreatedStaff & { user: TestUser }> {
    const email = newEmail(role);
    const created = expectJson<CreatedStaff>(await call(t(), admin, 'POST', '/api/admin/staff', { email, role }), 201);
    return { ...created, user: await login(t(), email, created.password) };
  }

  it('adds an analyst with a one-time password that logs in, lists them, and audits it without the password', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const email = newEmail('Analyst').toUpperCase();
    const res = await call(t(), admin, 'POST', '/api/admin/staff', { email: ` ${email} `, role: 'analyst' });
    const created = expectJson<CreatedStaff>(res, 201);
    expect(created).toMatchObject({ email: email.toLowerCase(), role: 'analyst', totp_enabled: false });
    expect(created.last_login_at).toBeNull();
    expect(created.password).toHaveLength(20);

    const analyst = await login(t(), email.toLowerCase(), created.password);
    // An analyst reads the admin area but manages nobody.
    expect((await call(t(), analyst, 'GET', '/api/admin/users')).statusCode).toBe(200);
    expect((await call(t(), analyst, 'GET', '/api/admin/staff')).statusCode).toBe(403);

    const list = expectJson<StaffMember[]>(await call(t(), admin, 'GET', '/api/admin/staff'), 200);
    expect(list.find((m) => m.id === created.id)).toMatchObject({ role: 'analyst', email: email.toLowerCase() });
    expect(list.find((m) => m.id === admin.id)).toMatchObject({ role: 'admin' });
    expect(list.every((m) => !('password' in m))).toBe(true);

    const [entry] = (await audit(t(), admin, 'staff.create')).filter((e) => e.target_id === created.id);
    expect(entry).toMatchObject({ actor_email: admin.email, details: { email: email.toLowerCase(), role: 'analyst' } });
    expect(JSON.stringify(entry)).not.toContain(created.password);
  });

  it('refuses a used email (409) and a bad one (400), writing nothing', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const count = async () => (await t().database.db.selectFrom('users').select('id').execute()).length;
    const before = await count();
    const taken = await call(t(), admin, 'POST', '/api/admin/staff', { email: admin.email, role: 'admin' });
    expect(expectJson<{ code: string }>(taken, 409).code).toBe('CONFLICT');
    for (const body of [
      { email: 'not-an-email', role: 'analyst' },
      { email: newEmail('x'), role: 'participant' },
      { email: newEmail('x') },
    ]) {
      const bad = await call(t(), admin, 'POST', '/api/admin/staff', body);
      expect(expectJson<{ code: string }>(bad, 400).code).toBe('VALIDATION_FAILED');
    }
    expect(await count()).toBe(before);
  });

  it('changes a role, ending the account’s sessions (its role is in its login), and audits it', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const analyst = await add(admin, 'analyst');
    const res = await call(t(), admin, 'PUT', `/api/admin/staff/${analyst.id}/role`, { role: 'admin' });
    expect(expectJson<StaffMember>(res, 200)).toMatchObject({ id: analyst.id, role: 'admin' });
    expect((await call(t(), analyst.user, 'GET', '/api/admin/users')).statusCode).toBe(401);
    const again = await login(t(), analyst.email, analyst.password);
    expect((await call(t(), again, 'GET', '/api/admin/staff')).statusCode).toBe(200);
    const [entry] = (await audit(t(), admin, 'staff.role')).filter((e) => e.target_id === analyst.id);
    expect(entry).toMatchObject({ actor_id: admin.id, details: { role: 'admin', sessions_ended: 1 } });

    // The same role again changes nothing and ends nothing.
    const same = await call(t(), admin, 'PUT', `/api/admin/staff/${analyst.id}/role`, { role: 'admin' });
    expect(expectJson<StaffMember>(same, 200).role).toBe('admin');
    expect((await call(t(), again, 'GET', '/api/admin/staff')).statusCode).toBe(200);
    expect((await audit(t(), admin, 'staff.role')).filter((e) => e.target_id === analyst.id)).toHaveLength(1);
  });

  it('removes an account after which it cannot log in; the audit log keeps its email', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const analyst = await add(admin, 'analyst');
    expect(expectJson(await call(t(), admin, 'DELETE', `/api/admin/staff/${analyst.id}`), 200)).toEqual({ ok: true });
    expect((await call(t(), analyst.user, 'GET', '/api/admin/users')).statusCode).toBe(401);
    const relogin = await t().app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: analyst.email, password: analyst.password },
    });
    expect(relogin.statusCode).toBe(401);
    const list = expectJson<StaffMember[]>(await call(t(), admin, 'GET', '/api/admin/staff'), 200);
    expect(list.some((m) => m.id === analyst.id)).toBe(false);
    const [entry] = (await audit(t(), admin, 'staff.remove')).filter((e) => e.target_id === analyst.id);
    expect(entry).toMatchObject({ details: { email: analyst.email, role: 'analyst' } });
    expect((await call(t(), admin, 'DELETE', `/api/admin/staff/${analyst.id}`)).statusCode).toBe(404);
  });

  it('manages only admins and analysts: a participant or an unknown id is 404, a bad id 400', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const participant = await createAndLogin(t());
    for (const [method, suffix, body] of [
      ['PUT', '/role', { role: 'admin' }],
      ['DELETE', '', undefined],
      ['POST', '/totp-reset', undefined],
    ] as const) {
      const res = await call(t(), admin, method, `/api/admin/staff/${participant.id}${suffix}`, body);
      expect(expectJson<{ code: string }>(res, 404).code).toBe('NOT_FOUND');
      const bad = await call(t(), admin, method, `/api/admin/staff/not-an-id${suffix}`, body);
      expect(expectJson<{ code: string }>(bad, 400).code).toBe('VALIDATION_FAILED');
    }
  });

  it('resets another account’s two-factor, ending its sessions; one’s own is refused', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const analyst = await add(admin, 'analyst');
    await t()
      .database.db.updateTable('users')
      .set({ totp_secret: 'sealed', totp_enabled_at: t().clock.now.toISOString(), totp_last_step: 5 })
      .where('id', '=', analyst.id)
      .execute();
    const listed = expectJson<StaffMember[]>(await call(t(), admin, 'GET', '/api/admin/staff'), 200);
    expect(listed.find((m) => m.id === analyst.id)?.totp_enabled).toBe(true);

    const res = await call(t(), admin, 'POST', `/api/admin/staff/${analyst.id}/totp-reset`);
    expect(expectJson<StaffMember>(res, 200)).toMatchObject({ id: analyst.id, totp_enabled: false });
    const row = await t()
      .database.db.selectFrom('users')
      .select(['totp_secret', 'totp_enabled_at', 'totp_last_step'])
      .where('id', '=', analyst.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ totp_secret: null, totp_enabled_at: null, totp_last_step: null });
    expect((await call(t(), analyst.user, 'GET', '/api/admin/users')).statusCode).toBe(401);
    // The password alone logs in again, with no code asked.
    await login(t(), analyst.email, analyst.password);
    const [entry] = (await audit(t(), admin, 'staff.totp_reset')).filter((e) => e.target_id === analyst.id);
    expect(entry).toMatchObject({ details: { email: analyst.email, was_enabled: true } });

    const own = await call(t(), admin, 'POST', `/api/admin/staff/${admin.id}/totp-reset`);
    expect(expectJson<{ code: string; error: string }>(own, 409).error).toMatch(/Security page/);
  });
});

describe.each(TEST_DIALECTS)('the last admin on %s', (dialect) => {
  // A database of its own: the admins counted are this test's only.
  const t = useTestApp(dialect);

  it('an admin neither removes nor demotes their own account; the last admin stays, even under a race', async () => {
    const solo = await createAndLogin(t(), { isAdmin: true });
    const demote = await call(t(), solo, 'PUT', `/api/admin/staff/${solo.id}/role`, { role: 'analyst' });
    expect(expectJson<{ code: string; error: string }>(demote, 409).error).toMatch(/your own account: another admin/);
    const remove = await call(t(), solo, 'DELETE', `/api/admin/staff/${solo.id}`);
    expect(expectJson<{ code: string; error: string }>(remove, 409).error).toMatch(/your own account/);
    // Below the routes, the rule that holds whoever asks: never the last admin.
    await expect(changeStaffRole(t().deps, solo.id, 'analyst')).rejects.toMatchObject({
      status: 409,
      code: 'LAST_ADMIN',
    });
    await expect(removeStaffAccount(t().deps, solo.id)).rejects.toMatchObject({ status: 409, code: 'LAST_ADMIN' });
    // Nothing changed: still an admin, still logged in.
    expect(expectJson<StaffMember[]>(await call(t(), solo, 'GET', '/api/admin/staff'), 200)).toHaveLength(1);

    const second = expectJson<CreatedStaff>(
      await call(t(), solo, 'POST', '/api/admin/staff', { email: newEmail('second'), role: 'admin' }),
      201,
    );
    const secondUser = await login(t(), second.email, second.password);
    // Two admins demoting each other at once: one wins; the other was demoted first (its session ended) or finds
    // the one it demotes is now the last admin.
    const both = await Promise.all([
      call(t(), solo, 'PUT', `/api/admin/staff/${second.id}/role`, { role: 'analyst' }),
      call(t(), secondUser, 'PUT', `/api/admin/staff/${solo.id}/role`, { role: 'analyst' }),
    ]);
    const statuses = both.map((r) => r.statusCode).sort();
    expect(statuses[0]).toBe(200);
    expect([401, 409]).toContain(statuses[1]);
    const admins = await t().database.db.selectFrom('users').select('id').where('is_admin', '=', true).execute();
    expect(admins).toHaveLength(1);
  });
});

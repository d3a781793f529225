import { randomUUID } from 'node:crypto';
import type { GeneratedCredential, StudyLoginsReply } from '@studychat/contracts';
import { describe, expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '../../db/migrator.js';
import { createAndLogin, expectJson, useTestApp, type TestUser } from '../../../test/app.js';
import { createTestDatabase, dropTestSchemas, TEST_DIALECTS } from '../../../test/databases.js';
import { at, buildExperiment, buildUser } from '../../../test/factories.js';
import { createExperiment, send } from '../participants/journey.fixtures.js';
import { studyLoginStatus } from './study-login.mapper.js';

type ErrorBody = { error: string; code: string };

describe.each(TEST_DIALECTS)('study logins of an experiment on %s', (dialect) => {
  const t = useTestApp(dialect);

  async function generate(admin: TestUser, experimentId: string, count: number): Promise<GeneratedCredential[]> {
    const res = await send(t(), admin, 'POST', `/api/experiments/${experimentId}/batch-credentials`, { count });
    return expectJson<GeneratedCredential[]>(res, 201);
  }

  async function logins(admin: TestUser, experimentId: string): Promise<StudyLoginsReply> {
    return expectJson<StudyLoginsReply>(await send(t(), admin, 'GET', `/api/experiments/${experimentId}/logins`), 200);
  }

  it('lists every generated login as unused until it logs in or joins, without passwords', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    const other = await createExperiment(t(), admin);
    const creds = await generate(admin, id, 4);
    await generate(admin, other.id, 2);

    const fresh = await logins(admin, id);
    expect(fresh).toMatchObject({ total: 4, used: 0, unused: 4 });
    expect(fresh.logins.map((l) => l.email).sort()).toEqual(creds.map((c) => c.email).sort());
    for (const login of fresh.logins) {
      expect(login).toEqual({
        email: expect.stringMatching(/@studychat\.local$/),
        batch_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        created_at: '2026-11-20T10:00:00.000Z',
        last_login_at: null,
        prolific_pid: null,
        status: 'unused',
      });
    }
    const body = JSON.stringify(fresh);
    for (const c of creds) expect(body).not.toContain(c.password);

    const [loggedIn, joined, completed] = creds;
    if (!loggedIn || !joined || !completed) throw new Error('expected three logins');
    const login = async (cred: GeneratedCredential) => {
      const res = await t().app.inject({ method: 'POST', url: '/api/auth/login', payload: cred });
      const { token, user } = expectJson<{ token: string; user: { id: string } }>(res, 200);
      return {
        id: user.id,
        email: cred.email,
        password: cred.password,
        token,
        headers: { authorization: `Bearer ${token}` },
      };
    };
    await login(loggedIn);
    for (const cred of [joined, completed]) {
      const user = await login(cred);
      const res = await send(t(), user, 'POST', '/api/participants', {
        user_id: user.id,
        experiment_id: id,
        prolific_pid: `PID-${cred.email.slice(6, 14)}`,
      });
      expect(res.statusCode).toBeLessThan(300);
      if (cred === completed) {
        await t()
          .database.db.updateTable('assignments')
          .set({ completed_at: at(30), completion_pathway: 'confirm' })
          .where('user_id', '=', user.id)
          .execute();
      }
    }

    const later = await logins(admin, id);
    expect(later).toMatchObject({ total: 4, used: 3, unused: 1 });
    const byEmail = new Map(later.logins.map((l) => [l.email, l]));
    expect(byEmail.get(loggedIn.email)).toMatchObject({ status: 'logged_in', prolific_pid: null });
    expect(byEmail.get(loggedIn.email)?.last_login_at).toBe('2026-11-20T10:00:00.000Z');
    expect(byEmail.get(joined.email)).toMatchObject({
      status: 'joined',
      prolific_pid: `PID-${joined.email.slice(6, 14)}`,
    });
    expect(byEmail.get(completed.email)?.status).toBe('completed');
    expect((await logins(admin, other.id)).total).toBe(2);

    // Each view of the list is an admin action in the audit log.
    const views = await t()
      .database.db.selectFrom('audit_log')
      .select(['actor_id', 'target_id'])
      .where('action', '=', 'logins.view')
      .where('target_id', '=', id)
      .execute();
    expect(views).toEqual([
      { actor_id: admin.id, target_id: id },
      { actor_id: admin.id, target_id: id },
    ]);
  });

  it('is for admins only, and answers 404 for an unknown experiment and 400 for a malformed id', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const participant = await createAndLogin(t());
    const { id } = await createExperiment(t(), admin);
    // The full matrix (analysts included) is in security/authorization-matrix.test.ts.
    expect((await send(t(), undefined, 'GET', `/api/experiments/${id}/logins`)).statusCode).toBe(401);
    expect(expectJson<ErrorBody>(await send(t(), participant, 'GET', `/api/experiments/${id}/logins`), 403).code).toBe(
      'FORBIDDEN',
    );
    const unknown = await send(t(), admin, 'GET', `/api/experiments/${randomUUID()}/logins`);
    expect(expectJson<ErrorBody>(unknown, 404).code).toBe('NOT_FOUND');
    expect((await send(t(), admin, 'GET', '/api/experiments/not-a-uuid/logins')).statusCode).toBe(400);
  });
});

describe.each(TEST_DIALECTS)('study-logins migration on %s', (dialect) => {
  it('fills in the logins generated before it from their metadata', async () => {
    const database = await createTestDatabase(dialect, { migrate: false });
    const db = database.db;
    expect((await migrateTo(db, '2026-11-20-initial')).error).toBeUndefined();

    const experiment = buildExperiment();
    await db.insertInto('experiments').values(experiment).execute();
    const batchId = randomUUID();
    const meta = (experimentId: string) =>
      JSON.stringify({ experimentId, batchId, generatedAt: at(1), generatedBy: 'x' });
    const login = buildUser({ metadata: meta(String(experiment.id)), created_at: at(1) });
    const elsewhere = buildUser({ metadata: meta(randomUUID()) });
    const plain = buildUser({ metadata: JSON.stringify({ note: 'no experiment' }) });
    const broken = buildUser({ metadata: '{not json' });
    const admin = buildUser({ metadata: meta(String(experiment.id)), is_admin: true });
    await db.insertInto('users').values([login, elsewhere, plain, broken, admin]).execute();

    expect((await migrateToLatest(db)).error).toBeUndefined();
    const rows = await db.selectFrom('study_logins').selectAll().execute();
    expect(rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() }))).toEqual([
      { user_id: login.id, experiment_id: experiment.id, batch_id: batchId, created_at: at(1) },
    ]);
    await database.close();
    await dropTestSchemas();
  });
});

describe('study login status', () => {
  it('counts joined or logged in as used, and completion above both', () => {
    const none = { assignment_id: null, completed_at: null, last_login_at: null };
    expect(studyLoginStatus(none)).toBe('unused');
    expect(studyLoginStatus({ ...none, last_login_at: at(1) })).toBe('logged_in');
    expect(studyLoginStatus({ ...none, assignment_id: 'a' })).toBe('joined');
    expect(studyLoginStatus({ ...none, assignment_id: 'a', last_login_at: at(1), completed_at: at(2) })).toBe(
      'completed',
    );
  });
});

import { randomUUID } from 'node:crypto';
import {
  EXPERIMENT_STATES,
  EXPERIMENT_TRANSITIONS,
  type Admission,
  type DeleteExperimentReply,
  type Experiment,
  type ExperimentState,
  type GeneratedCredential,
  type MonitorReply,
  type RevokeLoginReply,
  type StudyLoginsReply,
} from '@studychat/contracts';
import { describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, newSession, useTestApp, type TestApp, type TestUser } from '../../../test/app.js';
import { insertUserRow } from '../../../test/factories.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { createExperiment, participantAt, send } from '../participants/journey.fixtures.js';

type ErrorBody = { error: string; code: string };

async function analyst(app: TestApp): Promise<TestUser> {
  const row = await insertUserRow(app.database.db, { role: 'analyst' });
  return newSession(app, { id: String(row.id), email: row.email }, 'analyst');
}

/** The path through the lifecycle that reaches each state from open (a new experiment's state). */
const PATH_FROM_OPEN: Record<ExperimentState, ExperimentState[]> = {
  open: [],
  paused: ['paused'],
  closed: ['closed'],
  draft: ['draft'],
  archived: ['closed', 'archived'],
};

describe.each(TEST_DIALECTS)('experiment lifecycle on %s', (dialect) => {
  const t = useTestApp(dialect);

  async function setState(admin: TestUser, id: string, state: ExperimentState) {
    return send(t(), admin, 'PUT', `/api/experiments/${id}/state`, { state });
  }

  async function experimentIn(admin: TestUser, state: ExperimentState): Promise<Experiment> {
    const created = await createExperiment(t(), admin);
    let last = created;
    for (const step of PATH_FROM_OPEN[state])
      last = expectJson<Experiment>(await setState(admin, created.id, step), 200);
    expect(last.state).toBe(state);
    return last;
  }

  function auditOf(app: TestApp, action: string, targetId: string) {
    return app.database.db
      .selectFrom('audit_log')
      .select(['actor_id', 'details'])
      .where('action', '=', action)
      .where('target_id', '=', targetId)
      .execute();
  }

  async function join(user: TestUser, experimentId: string) {
    return send(t(), user, 'POST', '/api/participants', {
      user_id: user.id,
      experiment_id: experimentId,
      prolific_pid: `PID-${user.id.slice(0, 8)}`,
    });
  }

  it('creates experiments open (as before), and lists archived ones only when asked', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const open = await createExperiment(t(), admin);
    expect(open.state).toBe('open');
    const archived = await experimentIn(admin, 'archived');
    const listed = expectJson<Experiment[]>(await send(t(), admin, 'GET', '/api/experiments'), 200);
    expect(listed.map((e) => e.id)).toEqual([open.id]);
    const all = expectJson<Experiment[]>(await send(t(), admin, 'GET', '/api/experiments?include_archived=true'), 200);
    expect(all.map((e) => e.id).sort()).toEqual([open.id, archived.id].sort());
    // Its data stays readable.
    expect(expectJson<Experiment>(await send(t(), admin, 'GET', `/api/experiments/${archived.id}`), 200).state).toBe(
      'archived',
    );
    expect((await send(t(), admin, 'GET', '/api/experiments?include_archived=maybe')).statusCode).toBe(400);
  });

  it.each(EXPERIMENT_STATES.flatMap((from) => EXPERIMENT_STATES.map((to) => [from, to] as const)))(
    'from %s to %s: allowed only along the lifecycle, audited with both states',
    async (from, to) => {
      const admin = await createAndLogin(t(), { isAdmin: true });
      const experiment = await experimentIn(admin, from);
      const res = await setState(admin, experiment.id, to);
      if (from === to || EXPERIMENT_TRANSITIONS[from].includes(to)) {
        expect(expectJson<Experiment>(res, 200).state).toBe(to);
        const entries = await auditOf(t(), 'experiment.state', experiment.id);
        expect(entries.map((e) => JSON.parse(String(e.details)))).toContainEqual({ from, to });
      } else {
        const body = expectJson<ErrorBody>(res, 409);
        expect(body.code).toBe('STATE_TRANSITION_INVALID');
        expect(body.error).toContain(`cannot become ${to}`);
        const after = expectJson<Experiment>(await send(t(), admin, 'GET', `/api/experiments/${experiment.id}`), 200);
        expect(after.state).toBe(from);
      }
    },
  );

  it('archives only from closed or draft', () => {
    const into = EXPERIMENT_STATES.filter((s) => EXPERIMENT_TRANSITIONS[s].includes('archived'));
    expect(into.sort()).toEqual(['closed', 'draft']);
  });

  it('goes back from open to draft only while nobody joined', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    await participantAt(t(), id, 'joined');
    const res = await setState(admin, id, 'draft');
    expect(expectJson<ErrorBody>(res, 409).code).toBe('EXPERIMENT_HAS_PARTICIPANTS');
  });

  it.each([
    ['paused', 403, 'EXPERIMENT_PAUSED'],
    ['closed', 403, 'EXPERIMENT_CLOSED'],
    ['draft', 403, 'EXPERIMENT_CLOSED'],
    ['archived', 403, 'EXPERIMENT_CLOSED'],
  ] as const)(
    'refuses a new join while %s, writing nothing, and says so on the landing',
    async (state, status, code) => {
      const admin = await createAndLogin(t(), { isAdmin: true });
      const { id } = await experimentIn(admin, state);
      const newcomer = await createAndLogin(t());
      const refused = expectJson<ErrorBody>(await join(newcomer, id), status);
      expect(refused.code).toBe(code);
      expect(refused.error).toMatch(state === 'paused' ? /paused/ : /closed/);
      const rows = await t()
        .database.db.selectFrom('assignments')
        .select('id')
        .where('experiment_id', '=', id)
        .execute();
      expect(rows).toEqual([]);
      const events = await t()
        .database.db.selectFrom('journey_events')
        .select('experiment_id')
        .where('experiment_id', '=', id)
        .execute();
      expect(events).toEqual([]);

      const admission = expectJson<Admission>(
        await send(t(), undefined, 'GET', `/api/participants/admission/${id}`),
        200,
      );
      expect(admission).toEqual({
        admitting: false,
        message: refused.error,
        reason: state === 'paused' ? 'paused' : 'closed',
      });
    },
  );

  it('admits as before while open', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    const admission = expectJson<Admission>(
      await send(t(), undefined, 'GET', `/api/participants/admission/${id}`),
      200,
    );
    expect(admission).toEqual({ admitting: true, message: null });
    expect((await join(await createAndLogin(t()), id)).statusCode).toBe(201);
  });

  it.each(['paused', 'closed'] as const)(
    'lets a participant already in finish while %s, and reopening admits new ones again',
    async (state) => {
      const admin = await createAndLogin(t(), { isAdmin: true });
      const { id } = await createExperiment(t(), admin);
      const inside = await participantAt(t(), id, 'assigned');
      expectJson(await setState(admin, id, state), 200);
      // The monitor shows the state.
      const monitor = expectJson<MonitorReply>(await send(t(), admin, 'GET', `/api/experiments/${id}/monitor`), 200);
      expect(monitor.state).toBe(state);
      // Logging in again joins again: the existing assignment answers (409, which the browser reads as "go on").
      expect(expectJson<ErrorBody>(await join(inside, id), 409).code).toBe('CONFLICT');
      const newcomer = await createAndLogin(t());
      const refused = await send(t(), newcomer, 'POST', '/api/participants', {
        user_id: newcomer.id,
        experiment_id: id,
        prolific_pid: 'PID-NEWCOMER',
      });
      expect(expectJson<ErrorBody>(refused, 403).code).toBe(
        state === 'paused' ? 'EXPERIMENT_PAUSED' : 'EXPERIMENT_CLOSED',
      );
      // The one inside goes on to the end.
      const journey = await send(t(), inside, 'GET', `/api/participants/journey/${id}`);
      expect(journey.statusCode).toBe(200);
      const sections = await send(t(), inside, 'POST', '/api/participants/sections/open', {
        experimentId: id,
        sectionIndex: 0,
      });
      expect(sections.statusCode).toBe(200);

      expectJson(await setState(admin, id, 'open'), 200);
      expect((await join(await createAndLogin(t()), id)).statusCode).toBe(201);
    },
  );

  it('is for admins only, 404 for an unknown experiment, 400 for a state that does not exist', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const analystUser = await analyst(t());
    const { id } = await createExperiment(t(), admin);
    expect((await send(t(), undefined, 'PUT', `/api/experiments/${id}/state`, { state: 'paused' })).statusCode).toBe(
      401,
    );
    expect((await setState(analystUser, id, 'paused')).statusCode).toBe(403);
    expect(expectJson<ErrorBody>(await setState(admin, randomUUID(), 'paused'), 404).code).toBe('NOT_FOUND');
    const bad = await send(t(), admin, 'PUT', `/api/experiments/${id}/state`, { state: 'deleted' });
    expect(expectJson<ErrorBody>(bad, 400).code).toBe('VALIDATION_FAILED');
  });
});

describe.each(TEST_DIALECTS)('deleting a draft experiment on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('deletes a draft nobody joined, with its codes and study logins (their accounts too), audited', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    const creds = expectJson<GeneratedCredential[]>(
      await send(t(), admin, 'POST', `/api/experiments/${id}/batch-credentials`, { count: 3 }),
      201,
    );
    expectJson(await send(t(), admin, 'PUT', `/api/experiments/${id}/state`, { state: 'draft' }), 200);
    const deleted = expectJson<DeleteExperimentReply>(await send(t(), admin, 'DELETE', `/api/experiments/${id}`), 200);
    expect(deleted).toEqual({ id, study_logins: 3 });

    const db = t().database.db;
    expect(await db.selectFrom('experiments').select('id').where('id', '=', id).execute()).toEqual([]);
    expect(await db.selectFrom('completion_codes').select('code').where('experiment_id', '=', id).execute()).toEqual(
      [],
    );
    const emails = creds.map((c) => c.email);
    expect(await db.selectFrom('users').select('id').where('email', 'in', emails).execute()).toEqual([]);
    expect((await send(t(), admin, 'GET', `/api/experiments/${id}`)).statusCode).toBe(404);
    const audit = await db
      .selectFrom('audit_log')
      .select(['actor_id', 'details'])
      .where('action', '=', 'experiment.delete')
      .where('target_id', '=', id)
      .execute();
    expect(audit.map((a) => ({ actor: a.actor_id, details: JSON.parse(String(a.details)) }))).toEqual([
      { actor: admin.id, details: { study_logins: 3 } },
    ]);
    // Deleting it again: it is gone.
    expect((await send(t(), admin, 'DELETE', `/api/experiments/${id}`)).statusCode).toBe(404);
  });

  it.each(['open', 'paused', 'closed'] as const)('refuses to delete an experiment that is %s (409)', async (state) => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    if (state !== 'open') {
      expectJson(await send(t(), admin, 'PUT', `/api/experiments/${id}/state`, { state }), 200);
    }
    const res = await send(t(), admin, 'DELETE', `/api/experiments/${id}`);
    expect(expectJson<ErrorBody>(res, 409).code).toBe('EXPERIMENT_NOT_DRAFT');
    expect((await send(t(), admin, 'GET', `/api/experiments/${id}`)).statusCode).toBe(200);
  });

  it('refuses to delete a draft someone ran (a draft archived after participants cannot be one)', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    await participantAt(t(), id, 'joined');
    // Open with a participant cannot become a draft; force the row to draft to test the delete's own check.
    await t().database.db.updateTable('experiments').set({ state: 'draft' }).where('id', '=', id).execute();
    const res = await send(t(), admin, 'DELETE', `/api/experiments/${id}`);
    expect(expectJson<ErrorBody>(res, 409).code).toBe('EXPERIMENT_HAS_PARTICIPANTS');
    expect(
      await t().database.db.selectFrom('assignments').select('id').where('experiment_id', '=', id).execute(),
    ).toHaveLength(1);
  });

  it('is for admins only', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const analystUser = await analyst(t());
    const participant = await createAndLogin(t());
    const { id } = await createExperiment(t(), admin);
    expectJson(await send(t(), admin, 'PUT', `/api/experiments/${id}/state`, { state: 'draft' }), 200);
    expect((await send(t(), undefined, 'DELETE', `/api/experiments/${id}`)).statusCode).toBe(401);
    expect((await send(t(), analystUser, 'DELETE', `/api/experiments/${id}`)).statusCode).toBe(403);
    expect((await send(t(), participant, 'DELETE', `/api/experiments/${id}`)).statusCode).toBe(403);
    expect((await send(t(), admin, 'GET', `/api/experiments/${id}`)).statusCode).toBe(200);
  });
});

describe.each(TEST_DIALECTS)('revoking a study login on %s', (dialect) => {
  const t = useTestApp(dialect);

  async function generate(admin: TestUser, experimentId: string, count: number): Promise<GeneratedCredential[]> {
    const res = await send(t(), admin, 'POST', `/api/experiments/${experimentId}/batch-credentials`, { count });
    return expectJson<GeneratedCredential[]>(res, 201);
  }

  async function loginAs(cred: GeneratedCredential): Promise<TestUser> {
    const res = await t().app.inject({ method: 'POST', url: '/api/auth/login', payload: cred });
    const { token, user } = expectJson<{ token: string; user: { id: string } }>(res, 200);
    return {
      id: user.id,
      email: cred.email,
      password: cred.password,
      token,
      headers: { authorization: `Bearer ${token}` },
    };
  }

  it('ends the login in use at once, refuses its next login with a clear message, and lists it revoked', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    const [inUse, spare] = await generate(admin, id, 2);
    if (!inUse || !spare) throw new Error('expected two logins');
    const participant = await loginAs(inUse);
    expect(
      (
        await send(t(), participant, 'POST', '/api/participants', {
          user_id: participant.id,
          experiment_id: id,
          prolific_pid: 'PID-REVOKED',
        })
      ).statusCode,
    ).toBe(201);

    const revoked = expectJson<RevokeLoginReply>(
      await send(t(), admin, 'POST', `/api/experiments/${id}/logins/revoke`, { email: inUse.email.toUpperCase() }),
      200,
    );
    expect(revoked).toEqual({ email: inUse.email, sessions_ended: 1 });

    // Its session is over at once.
    const after = await send(t(), participant, 'GET', `/api/participants/journey/${id}`);
    expect(after.statusCode).toBe(401);
    // Logging in again: the password is right, and the login is refused with what happened.
    const again = await t().app.inject({ method: 'POST', url: '/api/auth/login', payload: inUse });
    const body = expectJson<ErrorBody>(again, 403);
    expect(body.code).toBe('LOGIN_REVOKED');
    expect(body.error).toMatch(/withdrawn by the research team/);
    // A wrong password still reads as wrong credentials (nothing about the login is revealed).
    const wrong = await t().app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: inUse.email, password: 'not-the-password' },
    });
    expect(expectJson<ErrorBody>(wrong, 401).code).toBe('INVALID_CREDENTIALS');

    const list = expectJson<StudyLoginsReply>(await send(t(), admin, 'GET', `/api/experiments/${id}/logins`), 200);
    expect(list).toMatchObject({ total: 2, used: 1, unused: 1 });
    expect(list.logins.find((l) => l.email === inUse.email)?.status).toBe('revoked');
    expect(list.logins.find((l) => l.email === spare.email)?.status).toBe('unused');

    // Again: nothing more to end; audited each time.
    expect(
      expectJson<RevokeLoginReply>(
        await send(t(), admin, 'POST', `/api/experiments/${id}/logins/revoke`, { email: inUse.email }),
        200,
      ),
    ).toEqual({ email: inUse.email, sessions_ended: 0 });
    const audit = await t()
      .database.db.selectFrom('audit_log')
      .select(['actor_id', 'details'])
      .where('action', '=', 'login.revoke')
      .where('target_id', '=', id)
      .execute();
    expect(audit.map((a) => JSON.parse(String(a.details)))).toEqual(
      expect.arrayContaining([
        { email: inUse.email, sessions_ended: 1 },
        { email: inUse.email, sessions_ended: 0 },
      ]),
    );
    expect(audit).toHaveLength(2);
    // The spare still logs in.
    await loginAs(spare);
  });

  it('answers 404 for an email that is not a login of this experiment, and for an unknown experiment', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    const other = await createExperiment(t(), admin);
    const [elsewhere] = await generate(admin, other.id, 1);
    if (!elsewhere) throw new Error('expected a login');
    const notHere = await send(t(), admin, 'POST', `/api/experiments/${id}/logins/revoke`, { email: elsewhere.email });
    expect(expectJson<ErrorBody>(notHere, 404).error).toMatch(/No study login/);
    // Nor an admin's account, which is no study login.
    const adminRes = await send(t(), admin, 'POST', `/api/experiments/${id}/logins/revoke`, { email: admin.email });
    expect(adminRes.statusCode).toBe(404);
    const unknown = await send(t(), admin, 'POST', `/api/experiments/${randomUUID()}/logins/revoke`, {
      email: elsewhere.email,
    });
    expect(expectJson<ErrorBody>(unknown, 404).error).toBe('Experiment not found');
    await loginAs(elsewhere);
  });

  it('is for admins only', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const analystUser = await analyst(t());
    const { id } = await createExperiment(t(), admin);
    const [cred] = await generate(admin, id, 1);
    if (!cred) throw new Error('expected a login');
    const body = { email: cred.email };
    expect((await send(t(), undefined, 'POST', `/api/experiments/${id}/logins/revoke`, body)).statusCode).toBe(401);
    expect((await send(t(), analystUser, 'POST', `/api/experiments/${id}/logins/revoke`, body)).statusCode).toBe(403);
    await loginAs(cred);
  });
});

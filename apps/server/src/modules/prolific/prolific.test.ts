import { useFakeProlificApp } from '../../../test/fake-prolific-app.js';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectJson, type TestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { webhook, type FakeProlific } from '../../../test/fakes/prolific-fake.js';
import { CODES, createExperiment, participantAt, send } from '../participants/journey.fixtures.js';
import { FLOW_TEMPLATES } from '@studychat/contracts';
import { flowExperiment, flowParticipant, walk } from '../flow/flow.testing.js';
import { COMPLETION_ATTEMPTS, prolificIdle, prolificRuntimeOf, resumePendingCompletions } from './prolific.service.js';

// The Prolific connection against a fake of Prolific's API (test/fakes/prolific-fake.ts), on both databases
// (docs/decisions/0083-prolific-api.md): the sealed token and its test, 401 and 429 from Prolific, signed,
// unsigned, forged and replayed webhooks, and the server's own completion of a submission when the participant's
// browser never follows the redirect.

const SECRET = 'whsec-test-secret-0123456789';
const STUDY = '60aca280709ee40ec37d4885';

describe.each(TEST_DIALECTS)('Prolific on %s', (dialect) => {
  let t: TestApp;
  let fake: FakeProlific;
  let admin: TestUser;

  const env = useFakeProlificApp(dialect);
  beforeAll(() => {
    ({ t, fake, admin } = env);
  });
  beforeEach(() => {
    fake.requests.length = 0;
    fake.failures.length = 0;
    fake.submissions.length = 0;
  });
  afterEach(async () => {
    await prolificIdle(t.deps);
  });

  const put = (body: unknown) =>
    t.app.inject({ method: 'PUT', url: '/api/admin/prolific', headers: admin.headers, payload: body as object });
  const connect = async () => expectJson(await put({ apiToken: fake.token, webhookSecret: SECRET }), 200);
  const disconnect = async () =>
    expectJson(await t.app.inject({ method: 'DELETE', url: '/api/admin/prolific', headers: admin.headers }), 200);
  const testConnection = () =>
    t.app.inject({ method: 'POST', url: '/api/admin/prolific/test', headers: admin.headers });
  const deliver = (delivery: ReturnType<typeof webhook>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/prolific/webhooks',
      headers: delivery.headers,
      payload: delivery.payload,
    });

  async function linkedExperiment(): Promise<string> {
    const { id } = await createExperiment(t, admin);
    expectJson(await send(t, admin, 'PUT', `/api/experiments/${id}/prolific-study`, { studyId: STUDY }), 200);
    return id;
  }

  async function setSession(userId: string, experimentId: string, sessionId: string | null) {
    await t.database.db
      .updateTable('assignments')
      .set({ session_id: sessionId })
      .where('user_id', '=', userId)
      .where('experiment_id', '=', experimentId)
      .execute();
  }

  async function submissionStatus(userId: string, experimentId: string) {
    const row = await t.database.db
      .selectFrom('prolific_submissions as s')
      .innerJoin('assignments as a', 'a.id', 's.assignment_id')
      .select(['s.status', 's.submission_id'])
      .where('a.user_id', '=', userId)
      .where('a.experiment_id', '=', experimentId)
      .executeTakeFirst();
    return row ?? null;
  }

  async function completionRow(userId: string, experimentId: string) {
    return t.database.db
      .selectFrom('prolific_completions as c')
      .innerJoin('assignments as a', 'a.id', 'c.assignment_id')
      .select(['c.state', 'c.attempts', 'c.code', 'c.last_error'])
      .where('a.user_id', '=', userId)
      .where('a.experiment_id', '=', experimentId)
      .executeTakeFirst();
  }

  describe('the connection', () => {
    it('stores the token sealed, never answers it back, and audits each change without its value', async () => {
      const reply = await connect();
      expect(reply).toMatchObject({ tokenSet: true, webhookSecretSet: true, webhookPath: '/api/prolific/webhooks' });
      expect(JSON.stringify(reply)).not.toContain(fake.token);
      const row = await t.database.db.selectFrom('prolific_settings').selectAll().executeTakeFirstOrThrow();
      expect(row.api_token).toMatch(/^v1:/);
      expect(row.api_token).not.toContain(fake.token);
      expect(row.webhook_secret).not.toContain(SECRET);
      const audits = await t.database.db
        .selectFrom('audit_log')
        .select(['action', 'details'])
        .where('action', 'like', 'prolific.%')
        .execute();
      expect(audits.map((a) => a.action)).toContain('prolific.connection.save');
      expect(JSON.stringify(audits)).not.toContain(fake.token);
      const cleared = await disconnect();
      expect(cleared).toMatchObject({ tokenSet: false, webhookSecretSet: false });
      const actions = await t.database.db
        .selectFrom('audit_log')
        .select('action')
        .where('action', '=', 'prolific.connection.clear')
        .execute();
      expect(actions).toHaveLength(1);
    });

    it('tests the token against users/me with the documented Authorization header', async () => {
      await connect();
      const reply = expectJson<{ accountId: string; email: string }>(await testConnection(), 200);
      expect(reply).toEqual({ ok: true, accountId: fake.account.id, email: fake.account.email });
      expect(fake.requests).toEqual([
        expect.objectContaining({ method: 'GET', path: '/api/v1/users/me/', authorization: `Token ${fake.token}` }),
      ]);
    });

    it("answers Prolific's 401 as a rejected token, not as the admin's own session ending", async () => {
      expectJson(await put({ apiToken: 'a-token-prolific-does-not-know' }), 200);
      const res = await testConnection();
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'PROLIFIC_TOKEN_REJECTED' });
    });

    it('waits out 429 as Retry-After says (on the injected clock), then succeeds', async () => {
      await connect();
      fake.failures.push({ status: 429, retryAfter: '7' }, { status: 429, retryAfter: '3' });
      const before = t.clock.now.getTime();
      expectJson(await testConnection(), 200);
      expect(fake.requests).toHaveLength(3);
      expect(t.clock.now.getTime() - before).toBe(10_000);
    });

    it('gives up after repeated 429s with a clear error', async () => {
      await connect();
      for (let i = 0; i < 10; i++) fake.failures.push({ status: 429 });
      const res = await testConnection();
      expect(res.statusCode).toBe(502);
      expect(res.json()).toMatchObject({ code: 'PROLIFIC_UNAVAILABLE' });
      expect(fake.requests).toHaveLength(5);
    });

    it('with no token, the test is refused and nothing calls Prolific', async () => {
      await disconnect();
      const res = await testConnection();
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'PROLIFIC_NOT_CONFIGURED' });
      expect(fake.requests).toHaveLength(0);
    });

    it('refuses an empty body and a too-short token (400, nothing written)', async () => {
      await disconnect();
      expect((await put({})).statusCode).toBe(400);
      expect((await put({ apiToken: 'short' })).statusCode).toBe(400);
      const row = await t.database.db.selectFrom('prolific_settings').selectAll().executeTakeFirst();
      expect(row?.api_token ?? null).toBeNull();
    });

    it('links an experiment to a study (admins), 404 for an unknown experiment', async () => {
      const experimentId = await linkedExperiment();
      expect(expectJson(await send(t, admin, 'GET', `/api/experiments/${experimentId}/prolific-study`), 200)).toEqual({
        experimentId,
        studyId: STUDY,
      });
      const missing = await send(
        t,
        admin,
        'PUT',
        '/api/experiments/00000000-0000-4000-8000-0000000000ff/prolific-study',
        {
          studyId: STUDY,
        },
      );
      expect(missing.statusCode).toBe(404);
      expect(
        (await send(t, admin, 'PUT', `/api/experiments/${experimentId}/prolific-study`, { studyId: 'not/an id' }))
          .statusCode,
      ).toBe(400);
    });
  });

  describe('webhooks', () => {
    it('stores a signed submission status on the participant with that PID and SESSION_ID', async () => {
      await connect();
      const experimentId = await linkedExperiment();
      const user = await participantAt(t, experimentId, 'joined', { pid: 'PIDMATCH01' });
      await setSession(user.id, experimentId, 'SUBMATCH01');
      const res = await deliver(
        webhook(SECRET, { resource_id: 'SUBMATCH01', participant_id: 'PIDMATCH01', status: 'RETURNED' }),
      );
      expect(expectJson(res, 200)).toEqual({ ok: true, outcome: 'matched' });
      expect(await submissionStatus(user.id, experimentId)).toEqual({
        status: 'returned',
        submission_id: 'SUBMATCH01',
      });
      // The monitor lists it beside the participant.
      const monitor = expectJson<{ participants: { user_id: string; prolific_status: string | null }[] }>(
        await send(t, admin, 'GET', `/api/experiments/${experimentId}/monitor`),
        200,
      );
      expect(monitor.participants.find((p) => p.user_id === user.id)?.prolific_status).toBe('returned');
    });

    it("a participant's withdrawal deletes their Prolific status and completion with them", async () => {
      await connect();
      const experimentId = await linkedExperiment();
      const user = await participantAt(t, experimentId, 'completed', { pid: 'PIDWITHDRAW' });
      await setSession(user.id, experimentId, 'SUBWITHDRAW');
      expectJson(
        await deliver(
          webhook(SECRET, { resource_id: 'SUBWITHDRAW', participant_id: 'PIDWITHDRAW', status: 'APPROVED' }),
        ),
        200,
      );
      await prolificIdle(t.deps);
      expect(await submissionStatus(user.id, experimentId)).not.toBeNull();
      expect(await completionRow(user.id, experimentId)).toBeDefined();
      const { id: assignmentId } = await t.database.db
        .selectFrom('assignments')
        .select('id')
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      const res = await send(t, admin, 'POST', `/api/experiments/${experimentId}/withdrawals`, {
        prolificId: 'PIDWITHDRAW',
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
      for (const table of ['prolific_submissions', 'prolific_completions'] as const) {
        const left = await t.database.db
          .selectFrom(table)
          .select('assignment_id')
          .where('assignment_id', '=', assignmentId)
          .execute();
        expect(left, table).toEqual([]);
      }
    });

    it('refuses unsigned, forged and tampered deliveries (401) and stores nothing', async () => {
      await connect();
      const experimentId = await linkedExperiment();
      const user = await participantAt(t, experimentId, 'joined', { pid: 'PIDFORGE01' });
      const event = { resource_id: 'SUBFORGE01', participant_id: 'PIDFORGE01', status: 'APPROVED' };
      const signed = webhook(SECRET, event);
      const unsigned = { ...signed, headers: { ...signed.headers, 'x-prolific-request-signature': '' } };
      const forged = webhook('another-secret-0123456789', event);
      const tampered = { ...signed, payload: signed.payload.replace('APPROVED', 'REJECTED') };
      const lateStamp = { ...signed, headers: { ...signed.headers, 'x-prolific-request-timestamp': '1795000001' } };
      for (const delivery of [unsigned, forged, tampered, lateStamp]) {
        const res = await deliver(delivery);
        expect(res.statusCode).toBe(401);
        expect(res.json()).toMatchObject({ code: 'WEBHOOK_SIGNATURE_INVALID' });
      }
      expect(await submissionStatus(user.id, experimentId)).toBeNull();
    });

    it('refuses every delivery while no webhook secret is set', async () => {
      await disconnect();
      const res = await deliver(
        webhook(SECRET, { resource_id: 'SUBNOSEC01', participant_id: 'PIDNOSEC01', status: 'ACTIVE' }),
      );
      expect(res.statusCode).toBe(401);
    });

    it('acknowledges a replayed or retried event id and skips it', async () => {
      await connect();
      const experimentId = await linkedExperiment();
      const user = await participantAt(t, experimentId, 'joined', { pid: 'PIDREPLAY1' });
      const first = webhook(
        SECRET,
        { resource_id: 'SUBREPLAY1', participant_id: 'PIDREPLAY1', status: 'AWAITING REVIEW' },
        { eventId: 'evt-replay-1', timestamp: 1_795_000_100 },
      );
      expect(expectJson(await deliver(first), 200)).toEqual({ ok: true, outcome: 'matched' });
      // The same event again, and a different status under the same id, signed: both skipped.
      expect(expectJson(await deliver(first), 200)).toEqual({ ok: true, outcome: 'duplicate' });
      const sameId = webhook(
        SECRET,
        { resource_id: 'SUBREPLAY1', participant_id: 'PIDREPLAY1', status: 'REJECTED' },
        { eventId: 'evt-replay-1', timestamp: 1_795_000_200 },
      );
      expect(expectJson(await deliver(sameId), 200)).toEqual({ ok: true, outcome: 'duplicate' });
      expect(await submissionStatus(user.id, experimentId)).toMatchObject({ status: 'awaiting_review' });
      const rows = await t.database.db
        .selectFrom('prolific_webhook_events')
        .selectAll()
        .where('event_id', '=', 'evt-replay-1')
        .execute();
      expect(rows).toHaveLength(1);
    });

    it('stores one status when the same event arrives twice at once', async () => {
      await connect();
      const experimentId = await linkedExperiment();
      const user = await participantAt(t, experimentId, 'joined', { pid: 'PIDTWICE01' });
      const delivery = webhook(
        SECRET,
        { resource_id: 'SUBTWICE01', participant_id: 'PIDTWICE01', status: 'APPROVED' },
        { eventId: 'evt-twice-1' },
      );
      const replies = await Promise.all([deliver(delivery), deliver(delivery), deliver(delivery)]);
      const outcomes = replies.map((r) => expectJson<{ outcome: string }>(r, 200).outcome).sort();
      expect(outcomes).toEqual(['duplicate', 'duplicate', 'matched']);
      expect(await submissionStatus(user.id, experimentId)).toMatchObject({ status: 'approved' });
    });

    it('keeps the later status when events arrive out of order', async () => {
      await connect();
      const experimentId = await linkedExperiment();
      const user = await participantAt(t, experimentId, 'joined', { pid: 'PIDORDER01' });
      const event = (status: string, timestamp: number) =>
        webhook(SECRET, { resource_id: 'SUBORDER01', participant_id: 'PIDORDER01', status }, { timestamp });
      expectJson(await deliver(event('APPROVED', 1_795_000_500)), 200);
      expectJson(await deliver(event('AWAITING REVIEW', 1_795_000_400)), 200);
      expect(await submissionStatus(user.id, experimentId)).toMatchObject({ status: 'approved' });
    });

    it('matches no one when the SESSION_ID recorded differs, or the experiment is not linked', async () => {
      await connect();
      const experimentId = await linkedExperiment();
      const user = await participantAt(t, experimentId, 'joined', { pid: 'PIDOTHER01' });
      await setSession(user.id, experimentId, 'SUBRECORDED');
      const res = await deliver(
        webhook(SECRET, { resource_id: 'SUBFORGED', participant_id: 'PIDOTHER01', status: 'APPROVED' }),
      );
      expect(expectJson(res, 200)).toEqual({ ok: true, outcome: 'unmatched' });
      const { id: unlinked } = await createExperiment(t, admin);
      const other = await participantAt(t, unlinked, 'joined', { pid: 'PIDUNLINK1' });
      const res2 = await deliver(
        webhook(SECRET, { resource_id: 'SUBUNLINK1', participant_id: 'PIDUNLINK1', status: 'APPROVED' }),
      );
      expect(expectJson(res2, 200)).toEqual({ ok: true, outcome: 'unmatched' });
      expect(await submissionStatus(user.id, experimentId)).toBeNull();
      expect(await submissionStatus(other.id, unlinked)).toBeNull();
    });

    it('acknowledges study events without storing anything, and refuses a delivery without an event id', async () => {
      await connect();
      const study = webhook(SECRET, { resource_id: STUDY, event_type: 'study.status.change', status: 'ACTIVE' });
      const progress = webhook(SECRET, {
        resource_id: STUDY,
        event_type: 'study.progress.change',
        participant_id: null,
      });
      expect(expectJson(await deliver(progress), 200)).toEqual({ ok: true, outcome: 'ignored' });
      expect(expectJson(await deliver(study), 200)).toEqual({ ok: true, outcome: 'ignored' });
      const noId = webhook(SECRET, { resource_id: 'SUBNOID001', participant_id: 'PIDNOID001', status: 'ACTIVE' });
      delete noId.headers['x-event-id'];
      expect((await deliver(noId)).statusCode).toBe(400);
    });
  });

  describe('server-side completion', () => {
    it('completes the submission with the pathway code when the browser never follows the redirect', async () => {
      await connect();
      const experimentId = await linkedExperiment();
      const user = await participantAt(t, experimentId, 'post', { pid: 'PIDLOST001' });
      await setSession(user.id, experimentId, 'SUBLOST001');
      fake.submissions.push({ id: 'SUBLOST001', participant_id: 'PIDLOST001', study_id: STUDY, status: 'ACTIVE' });
      fake.codes.set(STUDY, [CODES.complete]);
      const res = await send(t, user, 'POST', '/api/participants/completion', { experimentId, pathway: 'complete' });
      // The participant's reply carries the redirect code as before; the browser then goes nowhere.
      expect(expectJson(res, 200)).toMatchObject({ completionCode: CODES.complete });
      await prolificIdle(t.deps);
      expect(fake.requests).toEqual([
        expect.objectContaining({
          method: 'POST',
          path: '/api/v1/submissions/SUBLOST001/transition/',
          authorization: `Token ${fake.token}`,
          body: { action: 'COMPLETE', completion_code: CODES.complete },
        }),
      ]);
      expect(fake.submissions[0]?.status).toBe('AWAITING REVIEW');
      expect(await completionRow(user.id, experimentId)).toMatchObject({
        state: 'done',
        attempts: 1,
        code: CODES.complete,
      });
      // A repeat of the completion write sends nothing more.
      expectJson(
        await send(t, user, 'POST', '/api/participants/completion', { experimentId, pathway: 'complete' }),
        200,
      );
      await prolificIdle(t.deps);
      expect(fake.requests).toHaveLength(1);
    });

    it('finds the submission by PID through the paged list when no SESSION_ID was recorded', async () => {
      await connect();
      fake.pageSize = 2;
      const experimentId = await linkedExperiment();
      const user = await participantAt(t, experimentId, 'post', { pid: 'PIDPAGED01' });
      for (let i = 0; i < 5; i++) {
        fake.submissions.push({
          id: `SUBOTHER0${i}`,
          participant_id: `PIDOTHER${i}`,
          study_id: STUDY,
          status: 'ACTIVE',
        });
      }
      fake.submissions.push({ id: 'SUBPAGED01', participant_id: 'PIDPAGED01', study_id: STUDY, status: 'ACTIVE' });
      fake.codes.delete(STUDY);
      expectJson(
        await send(t, user, 'POST', '/api/participants/completion', { experimentId, pathway: 'complete' }),
        200,
      );
      await prolificIdle(t.deps);
      fake.pageSize = 20;
      const lists = fake.requests.filter((r) => r.method === 'GET');
      expect(lists.map((r) => r.path)).toEqual([
        `/api/v1/submissions/?study=${STUDY}`,
        `/api/v1/submissions/?study=${STUDY}&page=2`,
        `/api/v1/submissions/?study=${STUDY}&page=3`,
      ]);
      expect(fake.requests.at(-1)).toMatchObject({ path: '/api/v1/submissions/SUBPAGED01/transition/' });
      expect(await completionRow(user.id, experimentId)).toMatchObject({ state: 'done' });
    });

    it('retries while Prolific fails, with back-off on the injected clock, and records each attempt', async () => {
      await connect();
      const experimentId = await linkedExperiment();
      const user = await participantAt(t, experimentId, 'post', { pid: 'PIDRETRY01' });
      await setSession(user.id, experimentId, 'SUBRETRY01');
      fake.submissions.push({ id: 'SUBRETRY01', participant_id: 'PIDRETRY01', study_id: STUDY, status: 'ACTIVE' });
      fake.failures.push({ status: 503 }, { status: 429, retryAfter: '1' }, { status: 502 });
      expectJson(
        await send(t, user, 'POST', '/api/participants/completion', { experimentId, pathway: 'complete' }),
        200,
      );
      await prolificIdle(t.deps);
      expect(fake.requests.filter((r) => r.path.endsWith('/transition/'))).toHaveLength(4);
      expect(await completionRow(user.id, experimentId)).toMatchObject({
        state: 'done',
        attempts: 3,
        last_error: null,
      });
    });

    it('records a failure it cannot retry (an unknown submission: 404) and stops', async () => {
      await connect();
      const experimentId = await linkedExperiment();
      const user = await participantAt(t, experimentId, 'post', { pid: 'PIDGONE001' });
      await setSession(user.id, experimentId, 'SUBGONE001');
      expectJson(
        await send(t, user, 'POST', '/api/participants/completion', { experimentId, pathway: 'complete' }),
        200,
      );
      await prolificIdle(t.deps);
      expect(fake.requests).toHaveLength(1);
      const row = await completionRow(user.id, experimentId);
      expect(row).toMatchObject({ state: 'failed', attempts: 1 });
      expect(row?.last_error).toMatch(/no such/i);
    });

    it(`stops after ${COMPLETION_ATTEMPTS} attempts while Prolific stays down`, async () => {
      await connect();
      const experimentId = await linkedExperiment();
      const user = await participantAt(t, experimentId, 'post', { pid: 'PIDDOWN001' });
      await setSession(user.id, experimentId, 'SUBDOWN001');
      for (let i = 0; i < 20; i++) fake.failures.push({ status: 500 });
      expectJson(
        await send(t, user, 'POST', '/api/participants/completion', { experimentId, pathway: 'complete' }),
        200,
      );
      await prolificIdle(t.deps);
      expect(fake.requests).toHaveLength(COMPLETION_ATTEMPTS);
      expect(await completionRow(user.id, experimentId)).toMatchObject({
        state: 'failed',
        attempts: COMPLETION_ATTEMPTS,
      });
    });

    it("completes a flow study's submission at its end step with that pathway's code", async () => {
      await connect();
      const flow = FLOW_TEMPLATES[0];
      if (!flow) throw new Error('no flow template');
      const experimentId = await flowExperiment(t, admin, flow);
      expectJson(
        await send(t, admin, 'PUT', `/api/experiments/${experimentId}/prolific-study`, { studyId: STUDY }),
        200,
      );
      const user = await flowParticipant(t, experimentId);
      await setSession(user.id, experimentId, 'SUBFLOW001');
      fake.submissions.push({
        id: 'SUBFLOW001',
        participant_id: `PID-${user.id.slice(0, 8)}`,
        study_id: STUDY,
        status: 'ACTIVE',
      });
      fake.codes.delete(STUDY);
      const end = await walk(t, user, experimentId);
      expect(end.step).toMatchObject({ type: 'end', pathway: 'complete', code: 'CODE-COMPLETE' });
      await prolificIdle(t.deps);
      const transitions = fake.requests.filter((r) => r.path.endsWith('/transition/'));
      expect(transitions).toEqual([
        expect.objectContaining({
          path: '/api/v1/submissions/SUBFLOW001/transition/',
          body: { action: 'COMPLETE', completion_code: 'CODE-COMPLETE' },
        }),
      ]);
    });

    it('takes up, once, a completion a stopped process left pending', async () => {
      await disconnect();
      const experimentId = await linkedExperiment();
      const user = await participantAt(t, experimentId, 'completed', { pid: 'PIDCRASH01' });
      await setSession(user.id, experimentId, 'SUBCRASH01');
      const { id: assignmentId } = await t.database.db
        .selectFrom('assignments')
        .select('id')
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      // What a process that stopped between two attempts leaves behind.
      const before = (minutes: number) => new Date(t.clock.now.getTime() - minutes * 60_000).toISOString();
      await t.database.db
        .insertInto('prolific_completions')
        .values({
          assignment_id: assignmentId,
          code: CODES.complete,
          state: 'pending',
          attempts: 1,
          last_error: 'Prolific failed (503)',
          updated_at: before(10),
        })
        .execute();
      await connect();
      fake.submissions.push({ id: 'SUBCRASH01', participant_id: 'PIDCRASH01', study_id: STUDY, status: 'ACTIVE' });
      const runtime = prolificRuntimeOf(t.deps);
      if (!runtime) throw new Error('no Prolific runtime');
      // Two processes starting together: one takes it up.
      const taken = await Promise.all([resumePendingCompletions(runtime), resumePendingCompletions(runtime)]);
      expect(taken.reduce((a, b) => a + b, 0)).toBe(1);
      await prolificIdle(t.deps);
      expect(fake.requests.filter((r) => r.path === '/api/v1/submissions/SUBCRASH01/transition/')).toHaveLength(1);
      expect(await completionRow(user.id, experimentId)).toMatchObject({ state: 'done', attempts: 2 });
      expect(await resumePendingCompletions(runtime)).toBe(0);
    });

    it('with no token configured, a completion calls nothing', async () => {
      await disconnect();
      const experimentId = await linkedExperiment();
      const user = await participantAt(t, experimentId, 'post', { pid: 'PIDNOTOKEN' });
      await setSession(user.id, experimentId, 'SUBNOTOKEN');
      fake.submissions.push({ id: 'SUBNOTOKEN', participant_id: 'PIDNOTOKEN', study_id: STUDY, status: 'ACTIVE' });
      expectJson(
        await send(t, user, 'POST', '/api/participants/completion', { experimentId, pathway: 'complete' }),
        200,
      );
      await prolificIdle(t.deps);
      expect(fake.requests).toHaveLength(0);
      expect(await completionRow(user.id, experimentId)).toBeUndefined();
    });

    it('an experiment not linked to a study calls nothing', async () => {
      await connect();
      const { id: experimentId } = await createExperiment(t, admin);
      const user = await participantAt(t, experimentId, 'post', { pid: 'PIDNOLINK1' });
      expectJson(
        await send(t, user, 'POST', '/api/participants/completion', { experimentId, pathway: 'complete' }),
        200,
      );
      await prolificIdle(t.deps);
      expect(fake.requests).toHaveLength(0);
    });
  });
});

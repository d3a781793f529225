import { useFakeProlificApp } from '../../../test/fake-prolific-app.js';
import { randomUUID } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProlificChecklist, ProlificLaunch, ProlificSyncReply } from '@studychat/contracts';
import { expectJson, type TestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { buildAssignment, insertUserRow } from '../../../test/factories.js';
import type { FakeProlific } from '../../../test/fakes/prolific-fake.js';
import { CODES, createExperiment, send } from '../participants/journey.fixtures.js';
import { studyUrlOf } from './launch.service.js';

// Launching an experiment on Prolific against the fake (docs/decisions/0090-prolific-launch.md), on both
// databases: the draft's payload as Prolific documents it, one study for a double or concurrent launch, the
// checklist's failing items, publishing refused then accepted, the paged sync with 429 waited out, and nothing
// called without a token.

const PATHWAYS = [
  { pathway: 'complete', outcome: 'completed', action: 'AUTOMATICALLY_APPROVE' },
  { pathway: 'confirm', outcome: 'completed', action: 'MANUALLY_REVIEW' },
  { pathway: 'ceiling', outcome: 'screened_out', action: 'MANUALLY_REVIEW' },
] as const;
const LAUNCH = {
  places: 10,
  rewardMinor: 250,
  estimatedMinutes: 15,
  devices: ['desktop', 'tablet'],
  pathways: PATHWAYS,
  workspaceId: 'ws0123456789',
};

describe.each(TEST_DIALECTS)('launching on Prolific on %s', (dialect) => {
  let t: TestApp;
  let fake: FakeProlific;
  let admin: TestUser;

  const env = useFakeProlificApp(dialect);
  beforeAll(() => {
    ({ t, fake, admin } = env);
  });
  beforeEach(async () => {
    fake.requests.length = 0;
    fake.failures.length = 0;
    fake.submissions.length = 0;
    fake.pageSize = 20;
    await connect();
  });

  const connect = async () =>
    expectJson(await send(t, admin, 'PUT', '/api/admin/prolific', { apiToken: fake.token }), 200);
  const launch = (id: string, body: object = LAUNCH) =>
    send(t, admin, 'POST', `/api/experiments/${id}/prolific/launch`, body);
  const checklist = async (id: string) =>
    expectJson<ProlificChecklist>(await send(t, admin, 'GET', `/api/experiments/${id}/prolific/checklist`), 200);
  const studyCalls = () => fake.requests.filter((r) => r.path === '/api/v1/studies/');

  async function experiment(options: { linkJoin?: boolean } = {}): Promise<string> {
    const { id } = await createExperiment(t, admin);
    if (options.linkJoin) {
      expectJson(await send(t, admin, 'PUT', `/api/experiments/${id}/prolific-link-join`, { enabled: true }), 200);
    }
    return id;
  }

  /** Every checklist item made to pass except the draft itself. */
  async function ready(id: string) {
    const db = t.database.db;
    await db.updateTable('experiments').set({ state: 'open', chat_budget_usd: 40 }).where('id', '=', id).execute();
    const at = t.clock.now.toISOString();
    await db
      .insertInto('preview_links')
      .values({
        token_hash: randomUUID(),
        user_id: admin.id,
        experiment_id: id,
        created_by: admin.id,
        created_at: at,
        expires_at: at,
        used_at: at,
      })
      .execute();
    expectJson(await send(t, admin, 'POST', '/api/admin/model-check'), 200);
  }

  it('creates the draft study as Prolific documents it, with the logins as a credentials pool', async () => {
    const id = await experiment();
    const reply = expectJson<ProlificLaunch>(await launch(id), 200);
    expect(reply).toMatchObject({ state: 'draft', credentials: 15, studyUrl: studyUrlOf('http://localhost:3000', id) });
    const [created] = fake.studies;
    expect(fake.studies).toHaveLength(1);
    expect(reply.studyId).toBe(created?.id);
    const body = created?.body ?? {};
    const url = String(body.external_study_url);
    for (const placeholder of ['{{%PROLIFIC_PID%}}', '{{%STUDY_ID%}}', '{{%SESSION_ID%}}']) {
      expect(url).toContain(placeholder);
    }
    expect(url).toContain(`/prolific?EXPERIMENT_ID=${id}`);
    expect(body).toMatchObject({
      prolific_id_option: 'url_parameters',
      total_available_places: 10,
      reward: 250,
      estimated_completion_time: 15,
      device_compatibility: ['desktop', 'tablet'],
      completion_codes: [
        { code: CODES.complete, code_type: 'COMPLETED', actions: [{ action: 'AUTOMATICALLY_APPROVE' }] },
        { code: CODES.exitnoqualms, code_type: 'COMPLETED', actions: [{ action: 'MANUALLY_REVIEW' }] },
        { code: CODES.exitceiling, code_type: 'OTHER', actions: [{ action: 'MANUALLY_REVIEW' }] },
      ],
    });
    // 50% more logins than places, put in a pool first and named on the study; they are the experiment's logins.
    const pool = fake.credentialPools.find((p) => p.id === body.credential_pool_id);
    expect(pool?.workspaceId).toBe('ws0123456789');
    expect(pool?.credentials).toHaveLength(15);
    const logins = await t.database.db
      .selectFrom('study_logins')
      .innerJoin('users', 'users.id', 'study_logins.user_id')
      .select('users.email')
      .where('study_logins.experiment_id', '=', id)
      .execute();
    expect(logins.map((l) => l.email).sort()).toEqual(pool?.credentials.map((c) => c.username).sort());
    // Linked (so completions and webhooks find it) and audited.
    const link = expectJson<{ studyId: string }>(
      await send(t, admin, 'GET', `/api/experiments/${id}/prolific-study`),
      200,
    );
    expect(link.studyId).toBe(reply.studyId);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'details'])
      .where('action', '=', 'prolific.study.launch')
      .where('target_id', '=', id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain(pool?.credentials[0]?.password ?? 'never');
    fake.studies.length = 0;
  });

  it('joins by the link alone: no credentials pool and no workspace needed', async () => {
    const id = await experiment({ linkJoin: true });
    const { workspaceId: _, ...body } = LAUNCH;
    const reply = expectJson<ProlificLaunch>(await launch(id, body), 200);
    expect(reply.credentials).toBe(0);
    expect(fake.requests.some((r) => r.path === '/api/v1/credentials/')).toBe(false);
    expect(fake.studies.at(-1)?.body.credential_pool_id).toBeUndefined();
  });

  it('launches once: a second launch is refused, two at once make one study', async () => {
    const id = await experiment({ linkJoin: true });
    const [a, b] = await Promise.all([launch(id), launch(id)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect(studyCalls()).toHaveLength(1);
    const again = await launch(id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'CONFLICT' });
    expect(studyCalls()).toHaveLength(1);
    // Linked to another study by hand: still refused. Unlinked (the draft deleted on Prolific): a new draft.
    expectJson(await send(t, admin, 'PUT', `/api/experiments/${id}/prolific-study`, { studyId: 'elsewhere1' }), 200);
    expect((await launch(id)).statusCode).toBe(409);
    expectJson(await send(t, admin, 'PUT', `/api/experiments/${id}/prolific-study`, { studyId: null }), 200);
    const [c, d] = await Promise.all([launch(id), launch(id)]);
    expect([c.statusCode, d.statusCode].sort()).toEqual([200, 409]);
    expect(studyCalls()).toHaveLength(2);
  });

  it('releases the claim when Prolific refuses, so the researcher can launch again', async () => {
    const id = await experiment({ linkJoin: true });
    fake.failures.push({ status: 500 });
    const failed = await launch(id);
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toMatchObject({ code: 'PROLIFIC_UNAVAILABLE' });
    expectJson(await launch(id), 200);
  });

  it('refuses bad input with {error, code} before calling Prolific', async () => {
    const id = await experiment();
    const cases: [object, number][] = [
      [{ ...LAUNCH, places: 0 }, 400],
      [{ ...LAUNCH, rewardMinor: 2.5 }, 400],
      [{ ...LAUNCH, devices: [] }, 400],
      [{ ...LAUNCH, devices: ['desktop', 'desktop'] }, 400],
      [{ ...LAUNCH, devices: ['fridge'] }, 400],
      [{ ...LAUNCH, pathways: PATHWAYS.slice(0, 2) }, 400],
      [
        { ...LAUNCH, pathways: [...PATHWAYS, { pathway: 'nope', outcome: 'completed', action: 'MANUALLY_REVIEW' }] },
        400,
      ],
      [{ ...LAUNCH, pathways: [{ ...PATHWAYS[0], action: 'PAY_TWICE' }] }, 400],
      [{ ...LAUNCH, workspaceId: undefined }, 400],
      [{ ...LAUNCH, extra: 1 }, 400],
    ];
    for (const [body, status] of cases) {
      const res = await launch(id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json()).toEqual({ error: expect.any(String), code: expect.any(String) });
    }
    const noCodes = (await createExperiment(t, admin, false)).id;
    const res = await launch(noCodes);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'CODE_NOT_CONFIGURED' });
    expect(fake.requests).toEqual([]);
  });

  it('calls nothing without a token: 409 with a clear message', async () => {
    const id = await experiment({ linkJoin: true });
    expectJson(await send(t, admin, 'DELETE', '/api/admin/prolific'), 200);
    const publish = await send(t, admin, 'POST', `/api/experiments/${id}/prolific/publish`);
    expect(publish.statusCode).toBe(409);
    expect(publish.json().issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'connection' })]));
    const sync = await send(t, admin, 'POST', `/api/experiments/${id}/prolific/sync`);
    expect(sync.statusCode).toBe(409);
    expect(sync.json()).toMatchObject({ code: 'PROLIFIC_NOT_CONFIGURED' });
    expect((await launch(id)).json()).toMatchObject({
      code: 'PROLIFIC_NOT_CONFIGURED',
      error: expect.stringContaining('Prolific API token'),
    });
    expect(fake.requests).toEqual([]);
  });

  it('lists the failing checklist items, refuses to publish until all pass, then publishes once', async () => {
    const id = await experiment({ linkJoin: true });
    await t.database.db.updateTable('experiments').set({ state: 'paused' }).where('id', '=', id).execute();
    const first = await checklist(id);
    expect(first.ok).toBe(false);
    const failing = (c: ProlificChecklist) => c.items.filter((i) => !i.ok).map((i) => i.key);
    expect(failing(first).sort()).toEqual(['budget', 'draft', 'model', 'open', 'preview']);
    expect(first.pathways.map((p) => p.key)).toEqual(['complete', 'confirm', 'ceiling']);

    const refused = await send(t, admin, 'POST', `/api/experiments/${id}/prolific/publish`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().issues.map((i: { path: string }) => i.path)).toEqual(
      expect.arrayContaining(['open', 'draft']),
    );
    expect(fake.requests.filter((r) => r.path.includes('/transition/'))).toEqual([]);

    expectJson(await launch(id), 200);
    await ready(id);
    const passing = await checklist(id);
    expect(passing.items.filter((i) => !i.ok)).toEqual([]);
    expect(passing.ok).toBe(true);

    const [a, b] = await Promise.all([
      send(t, admin, 'POST', `/api/experiments/${id}/prolific/publish`),
      send(t, admin, 'POST', `/api/experiments/${id}/prolific/publish`),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const published = [a, b].find((r) => r.statusCode === 200)?.json() as ProlificLaunch;
    expect(published).toMatchObject({ state: 'published', publishedAt: expect.any(String) });
    const transitions = fake.requests.filter((r) => r.path.endsWith('/transition/'));
    expect(transitions).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: `/api/v1/studies/${published.studyId}/transition/`,
        body: { action: 'PUBLISH' },
      }),
    ]);
    expect(fake.studies.find((s) => s.id === published.studyId)?.status).toBe('ACTIVE');
    const audits = await t.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('action', '=', 'prolific.study.publish')
      .where('target_id', '=', id)
      .execute();
    expect(audits).toHaveLength(1);
  });

  it('reads every page of submissions, waits out a 429, and stores each status on its participant', async () => {
    const id = await experiment({ linkJoin: true });
    expectJson(await launch(id), 200);
    const studyId = fake.studies.at(-1)?.id ?? '';
    const db = t.database.db;
    const statuses = [
      'ACTIVE',
      'AWAITING REVIEW',
      'APPROVED',
      'RETURNED',
      'TIMED-OUT',
      'REJECTED',
      'AWAITING REVIEW',
      'AWAITING REVIEW',
    ];
    const participants: { assignmentId: string; submissionId: string }[] = [];
    for (const [i, status] of statuses.entries()) {
      const user = await insertUserRow(db);
      const submissionId = `SUB${i}${randomUUID().replace(/-/g, '').slice(0, 16)}`;
      const pid = `PID${i}${randomUUID().replace(/-/g, '').slice(0, 8)}`;
      // Some recorded their SESSION_ID at the landing, some not (matched as the only assignment of their PID).
      const row = buildAssignment(
        { userId: String(user.id), experimentId: id },
        { prolific_pid: pid, session_id: i % 2 === 0 ? submissionId : null },
      );
      await db.insertInto('assignments').values(row).execute();
      participants.push({ assignmentId: String(row.id), submissionId });
      fake.submissions.push({ id: submissionId, participant_id: pid, study_id: studyId, status });
    }
    // Someone else's submission (no participant here) and another study's.
    fake.submissions.push({ id: 'SUBSTRANGER1', participant_id: 'PIDSTRANGER', study_id: studyId, status: 'ACTIVE' });
    fake.submissions.push({ id: 'SUBOTHER1', participant_id: 'PIDOTHER', study_id: 'otherstudy', status: 'ACTIVE' });
    // A webhook stamped after the read already said approved for one; the bulk approval claimed another (approved,
    // stamped earlier): the list, still saying awaiting review, undoes neither.
    const stamp = async (p: (typeof participants)[number] | undefined, offsetMs: number) => {
      const at = new Date(t.clock.now.getTime() + offsetMs).toISOString();
      await db
        .insertInto('prolific_submissions')
        .values({
          assignment_id: p?.assignmentId ?? '',
          submission_id: p?.submissionId ?? '',
          status: 'approved',
          status_at: at,
          updated_at: at,
        })
        .execute();
    };
    await stamp(participants.at(-2), 60_000);
    await stamp(participants.at(-1), -60_000);
    fake.pageSize = 3;
    fake.failures.push({ status: 429, retryAfter: '4' });
    const before = t.clock.now.getTime();
    const reply = expectJson<ProlificSyncReply>(
      await send(t, admin, 'POST', `/api/experiments/${id}/prolific/sync`),
      200,
    );
    expect(t.clock.now.getTime() - before).toBeGreaterThanOrEqual(4000);
    const pages = fake.requests.filter((r) => r.path.startsWith('/api/v1/submissions/'));
    expect(pages.map((p) => new URL(p.path, fake.url).searchParams.get('page') ?? '1')).toEqual(['1', '1', '2', '3']);
    expect(reply).toMatchObject({ read: 9, matched: 8, unmatched: 1 });
    expect(reply.counts).toEqual({
      active: 1,
      awaiting_review: 1,
      approved: 3,
      returned: 1,
      timed_out: 1,
      rejected: 1,
      other: 0,
    });
    const stored = await db
      .selectFrom('prolific_submissions')
      .select(['assignment_id', 'status', 'submission_id'])
      .where(
        'assignment_id',
        'in',
        participants.map((p) => p.assignmentId),
      )
      .execute();
    const byAssignment = new Map(stored.map((s) => [s.assignment_id, s]));
    expect(participants.map((p) => byAssignment.get(p.assignmentId)?.status)).toEqual([
      'active',
      'awaiting_review',
      'approved',
      'returned',
      'timed_out',
      'rejected',
      'approved',
      'approved',
    ]);
    expect(participants.map((p) => byAssignment.get(p.assignmentId)?.submission_id)).toEqual(
      participants.map((p) => p.submissionId),
    );
    // A second sync changes nothing.
    const again = expectJson<ProlificSyncReply>(
      await send(t, admin, 'POST', `/api/experiments/${id}/prolific/sync`),
      200,
    );
    expect(again.counts).toEqual(reply.counts);
  });

  it('counts returned and timed-out logins as freed spares beside the unused ones', async () => {
    const id = await experiment();
    expectJson(await launch(id, { ...LAUNCH, places: 2 }), 200);
    const studyId = fake.studies.at(-1)?.id ?? '';
    const db = t.database.db;
    const logins = await db.selectFrom('study_logins').select('user_id').where('experiment_id', '=', id).execute();
    expect(logins).toHaveLength(3);
    const statuses = ['RETURNED', 'TIMED-OUT'];
    for (const [i, login] of logins.slice(0, 2).entries()) {
      const pid = `PIDL${i}${randomUUID().replace(/-/g, '').slice(0, 8)}`;
      const row = buildAssignment({ userId: login.user_id, experimentId: id }, { prolific_pid: pid, session_id: null });
      await db.insertInto('assignments').values(row).execute();
      fake.submissions.push({ id: `SUBL${i}X`, participant_id: pid, study_id: studyId, status: statuses[i] ?? '' });
    }
    const reply = expectJson<ProlificSyncReply>(
      await send(t, admin, 'POST', `/api/experiments/${id}/prolific/sync`),
      200,
    );
    expect(reply.spareLogins).toEqual({ unused: 1, freed: 2 });
  });

  it('refuses a sync of an experiment with no linked study', async () => {
    const id = await experiment();
    const res = await send(t, admin, 'POST', `/api/experiments/${id}/prolific/sync`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT' });
    expect(fake.requests).toEqual([]);
  });
});

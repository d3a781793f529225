import { describe, expect, it } from 'vitest';
import type {
  AdminUser,
  DetailedParticipantRow,
  MonitorReply,
  PreviewLink,
  RedeemPreviewReply,
} from '@studychat/contracts';
import { createAndLogin, expectJson, newSession, useTestApp, type TestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { insertMemberRow } from '../../../test/factories.js';
import {
  chatRounds,
  createExperiment,
  participantAt,
  readAllSections,
  send,
  surveyBody,
} from '../participants/journey.fixtures.js';

// "Preview as participant" (docs/decisions/0045): admins only, the chosen condition without the
// randomisation, flagged as a test run, a one-time link that expires, and no trace in the real numbers.

type ErrorBody = { error: string; code: string };

describe.each(TEST_DIALECTS)('preview as participant on %s', (dialect) => {
  const t = useTestApp(dialect);

  async function preview(admin: TestUser, experimentId: string, condition: 'mmr' | 'control'): Promise<PreviewLink> {
    return expectJson<PreviewLink>(
      await send(t(), admin, 'POST', `/api/experiments/${experimentId}/previews`, { condition }),
      201,
    );
  }

  async function redeem(link: PreviewLink) {
    return send(t(), undefined, 'POST', '/api/preview/redeem', { token: link.path.replace('/preview#', '') });
  }

  async function signIn(link: PreviewLink): Promise<TestUser> {
    const reply = expectJson<RedeemPreviewReply>(await redeem(link), 200);
    return {
      id: reply.user.id,
      email: reply.user.email,
      password: '',
      token: reply.token,
      headers: { authorization: `Bearer ${reply.token}` },
    };
  }

  /** Walks a signed-in participant from consent to the assignment step. */
  async function walkToAssignment(app: TestApp, user: TestUser, experimentId: string) {
    const survey = (surveyType: string, responses: Record<string, unknown>) =>
      send(app, user, 'POST', '/api/surveys', surveyBody(user.id, experimentId, surveyType, responses));
    expectJson(await send(app, user, 'POST', '/api/participants/consent', { experimentId }), 200);
    for (const res of [
      await survey('entry', { choice: 'questions' }),
      await survey('baseline', { vaccination_intention: '4' }),
      await survey('pre', { age: '25-34', sex: 'female', political_leaning: 'moderate' }),
    ]) {
      expect(res.statusCode).toBeLessThan(300);
    }
    return expectJson<{ assigned_condition: string; is_test?: boolean }>(
      await send(app, user, 'POST', '/api/participants/assign-condition', { experimentId }),
      200,
    );
  }

  it('creates a flagged test participant in the chosen condition, audited, with a link that signs in once', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    const link = await preview(admin, id, 'control');
    expect(link).toMatchObject({ condition: 'control', expires_at: '2026-11-20T10:30:00.000Z' });
    expect(link.prolific_pid).toMatch(/^PREVIEW-[0-9A-F]{8}$/);
    expect(link.path).toMatch(/^\/preview#[A-Za-z0-9_-]{43}$/);

    const { db } = t().database;
    const row = await db.selectFrom('assignments').selectAll().where('id', '=', link.assignment_id).executeTakeFirst();
    expect(row).toMatchObject({ user_id: link.user_id, experiment_id: id, assigned_condition: 'control' });
    expect(Boolean(row?.is_test)).toBe(true);
    // Only the token's hash is stored.
    const stored = await db.selectFrom('preview_links').selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(link.path).not.toContain(stored[0]?.token_hash);
    const audit = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'experiment.preview.create')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: admin.id, target_type: 'experiment', target_id: id });
    expect(JSON.parse(String(audit[0]?.details))).toMatchObject({ condition: 'control', test_user_id: link.user_id });

    const user = await signIn(link);
    expect(user.id).toBe(link.user_id);
    const journey = expectJson<{ step: string }>(await send(t(), user, 'GET', `/api/participants/journey/${id}`), 200);
    expect(journey.step).toBe('consent');
    // The forced condition is kept at the assignment step.
    expect((await walkToAssignment(t(), user, id)).assigned_condition).toBe('control');

    // Single use.
    expect(expectJson<ErrorBody>(await redeem(link), 401)).toEqual({
      error: 'This preview link has expired or has already been used. Create a new preview on the experiment page.',
      code: 'PREVIEW_LINK_INVALID',
    });
  });

  it('audits the link being used, under the admin who made it, once; the preview participant cannot read the log', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    const link = await preview(admin, id, 'mmr');
    const { db } = t().database;
    const redeemed = () =>
      db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'experiment.preview.redeem')
        .where('target_id', '=', id)
        .execute();
    expect(await redeemed()).toEqual([]);

    const user = await signIn(link);
    const entries = await redeemed();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor_id: admin.id,
      actor_email: admin.email,
      target_type: 'experiment',
      target_id: id,
    });
    expect(JSON.parse(String(entries[0]?.details))).toEqual({
      test_user_id: link.user_id,
      assignment_id: link.assignment_id,
      created_by: admin.id,
    });
    // A refused second use writes nothing.
    expect((await redeem(link)).statusCode).toBe(401);
    expect(await redeemed()).toHaveLength(1);

    // The admin reads it in the log; the preview participant is refused.
    const log = expectJson<{ entries: { action: string; actor_id: string }[] }>(
      await send(t(), admin, 'GET', '/api/admin/audit-log'),
      200,
    );
    expect(log.entries.filter((e) => e.action === 'experiment.preview.redeem' && e.actor_id === admin.id)).toHaveLength(
      1,
    );
    expect(expectJson<ErrorBody>(await send(t(), user, 'GET', '/api/admin/audit-log'), 403).code).toBe('FORBIDDEN');
  });

  it('audits a link whose admin was deleted under the test participant, created_by null', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const other = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    await insertMemberRow(t().database.db, id, other.id, 'editor');
    const link = await preview(other, id, 'control');
    const { db } = t().database;
    await db.updateTable('preview_links').set({ created_by: null }).where('user_id', '=', link.user_id).execute();
    await signIn(link);
    const entry = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'experiment.preview.redeem')
      .where('target_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ actor_id: link.user_id, target_id: id });
    expect(JSON.parse(String(entry.details))).toMatchObject({ created_by: null });
  });

  it('signs in exactly once when one link is redeemed five times at once, with one session', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    const link = await preview(admin, id, 'control');
    const replies = await Promise.all(Array.from({ length: 5 }, () => redeem(link)));
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 401, 401, 401, 401]);
    const sessions = await t()
      .database.db.selectFrom('sessions')
      .select('id')
      .where('user_id', '=', link.user_id)
      .execute();
    expect(sessions).toHaveLength(1);
  });

  it('refuses an expired link, an unknown token, and a password login as the test participant', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    const link = await preview(admin, id, 'mmr');
    t().clock.advance(30 * 60_000);
    expect(expectJson<ErrorBody>(await redeem(link), 401).code).toBe('PREVIEW_LINK_INVALID');
    const unknown = await send(t(), undefined, 'POST', '/api/preview/redeem', { token: 'x'.repeat(43) });
    expect(expectJson<ErrorBody>(unknown, 401).code).toBe('PREVIEW_LINK_INVALID');
    expect((await send(t(), undefined, 'POST', '/api/preview/redeem', {})).statusCode).toBe(400);
    const email = (
      await t().database.db.selectFrom('users').select('email').where('id', '=', link.user_id).executeTakeFirstOrThrow()
    ).email;
    expect(email).toMatch(/@preview\.invalid$/);
    const login = await send(t(), undefined, 'POST', '/api/auth/login', { email, password: '' });
    expect(login.statusCode).toBeGreaterThanOrEqual(400);
  });

  it('lets only admins create previews: 401 anonymous, 403 participant, analyst and a preview participant; 404 unknown experiment', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    const participant = await participantAt(t(), id, 'consented');
    const analystAccount = await createAndLogin(t());
    const analyst = await newSession(t(), analystAccount, 'analyst');
    const previewUser = await signIn(await preview(admin, id, 'mmr'));
    const url = `/api/experiments/${id}/previews`;
    expect(expectJson<ErrorBody>(await send(t(), undefined, 'POST', url, { condition: 'mmr' }), 401).code).toBe(
      'UNAUTHENTICATED',
    );
    for (const caller of [participant, analyst, previewUser]) {
      expect(expectJson<ErrorBody>(await send(t(), caller, 'POST', url, { condition: 'mmr' }), 403).code).toBe(
        'FORBIDDEN',
      );
    }
    expect(expectJson<ErrorBody>(await send(t(), admin, 'POST', url, { condition: 'other' }), 400).code).toBe(
      'VALIDATION_FAILED',
    );
    const missing = '/api/experiments/00000000-0000-4000-8000-000000000000/previews';
    expect(expectJson<ErrorBody>(await send(t(), admin, 'POST', missing, { condition: 'mmr' }), 404).code).toBe(
      'NOT_FOUND',
    );
    const previews = await t()
      .database.db.selectFrom('assignments')
      .select('id')
      .where('experiment_id', '=', id)
      .where('is_test', '=', true)
      .execute();
    expect(previews).toHaveLength(1);
  });

  it('leaves the randomisation of real participants untouched: previews claim no allocation slot', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    for (const condition of ['mmr', 'mmr', 'control'] as const) {
      const user = await signIn(await preview(admin, id, condition));
      await walkToAssignment(t(), user, id);
    }
    const { db } = t().database;
    expect(await db.selectFrom('allocation_slots').selectAll().where('experiment_id', '=', id).execute()).toEqual([]);
    const real = [];
    for (let i = 0; i < 4; i++) real.push(await participantAt(t(), id, 'assigned'));
    const slots = await db
      .selectFrom('allocation_slots')
      .select(['block_index', 'seq', 'assignment_id'])
      .where('experiment_id', '=', id)
      .where('assignment_id', 'is not', null)
      .orderBy('block_index')
      .orderBy('seq')
      .execute();
    // The real participants took the first slots of the stratum's first block, in order, as without previews.
    expect(slots.map((s) => [s.block_index, s.seq])).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
      [0, 4],
    ]);
    const realAssignments = await db
      .selectFrom('assignments')
      .select('id')
      .where('experiment_id', '=', id)
      .where('is_test', '=', false)
      .orderBy('created_at')
      .execute();
    expect(slots.map((s) => s.assignment_id).sort()).toEqual(realAssignments.map((a) => a.id).sort());
  });

  it('leaves test runs out of the monitor and the summary; the participants table marks them', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    const user = await signIn(await preview(admin, id, 'mmr'));
    await walkToAssignment(t(), user, id);
    const real = await participantAt(t(), id, 'assigned');

    const monitor = expectJson<MonitorReply>(await send(t(), admin, 'GET', `/api/experiments/${id}/monitor`), 200);
    expect(monitor.participants.map((p) => p.user_id)).toEqual([real.id]);
    expect(monitor.summary.total).toBe(1);
    expect(monitor.funnel.steps.find((s) => s.key === 'joined')?.reached).toBe(1);
    expect(Object.values(monitor.funnel.assigned).reduce((a, b) => a + b, 0)).toBe(1);
    // The ratio check counts the one real participant only.
    const srmCounts = monitor.srm.strata.flatMap((s) => Object.values(s.counts));
    expect(srmCounts.reduce((a, b) => a + b, 0)).toBe(1);
    const summary = expectJson<{ total: number; conditions: Record<string, number> }>(
      await send(t(), admin, 'GET', `/api/experiments/${id}/participant-summary`),
      200,
    );
    expect(summary.total).toBe(1);
    expect(Object.values(summary.conditions).reduce((a, b) => a + b, 0)).toBe(1);

    const rows = expectJson<DetailedParticipantRow[]>(
      await send(t(), admin, 'GET', `/api/experiments/${id}/participants-detailed`),
      200,
    );
    expect(rows.map((r) => [r.user_id, r.is_test]).sort()).toEqual(
      [
        [real.id, false],
        [user.id, true],
      ].sort(),
    );
  });

  it('shows what previews cost apart from the real spend, which neither the mean nor the projection include', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    expectJson(
      await send(t(), admin, 'PUT', `/api/experiments/${id}/monitor/settings`, { target_sample_size: 100 }),
      200,
    );
    const chatting = await signIn(await preview(admin, id, 'mmr'));
    await walkToAssignment(t(), chatting, id);
    await readAllSections(t(), chatting, id);
    await chatRounds(t(), chatting, id);
    await signIn(await preview(admin, id, 'control')); // a preview that never reaches the chat
    const real = await participantAt(t(), id, 'chatted');

    // Known costs on the two threads (the scripted model's price is 0), the tokens as the chat counted them.
    const { db } = t().database;
    await db.updateTable('chat_threads').set({ cost_usd: 0.25 }).where('user_id', '=', chatting.id).execute();
    await db.updateTable('chat_threads').set({ cost_usd: 0.5 }).where('user_id', '=', real.id).execute();
    const tokensOf = async (userId: string) =>
      Number(
        (
          await db
            .selectFrom('chat_threads')
            .select('tokens_used')
            .where('user_id', '=', userId)
            .executeTakeFirstOrThrow()
        ).tokens_used,
      );
    const previewTokens = await tokensOf(chatting.id);
    const realTokens = await tokensOf(real.id);
    expect(previewTokens).toBeGreaterThan(0);

    const { spend } = expectJson<MonitorReply>(await send(t(), admin, 'GET', `/api/experiments/${id}/monitor`), 200);
    expect(spend.previews).toEqual({ runs: 2, chats: 1, tokens: previewTokens, cost_usd: 0.25 });
    expect(spend).toMatchObject({
      tokens: realTokens,
      cost_usd: 0.5,
      cost_per_participant_usd: 0.5,
      projected_usd: 50,
      projected_tokens: realTokens * 100,
    });
    expect(Object.values(spend.by_condition).reduce((a, b) => a + b.participants, 0)).toBe(1);

    // Only admins and analysts read the monitor: the preview participant is refused.
    expect(expectJson<ErrorBody>(await send(t(), chatting, 'GET', `/api/experiments/${id}/monitor`), 403).code).toBe(
      'FORBIDDEN',
    );
  });

  it("marks a preview's login as a test in the admin users list and user page; participants cannot read them", async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    const link = await preview(admin, id, 'mmr');
    const previewUser = await signIn(link);
    const real = await participantAt(t(), id, 'assigned');

    const users = expectJson<AdminUser[]>(await send(t(), admin, 'GET', '/api/admin/users'), 200);
    const flag = (userId: string) => users.find((u) => u.id === userId)?.is_test;
    expect([flag(link.user_id), flag(real.id), flag(admin.id)]).toEqual([true, false, false]);
    // Every test user listed is a preview's login (the one flag of record: an is_test assignment).
    const previewLogins = users.filter((u) => u.is_test).map((u) => u.email);
    expect(previewLogins.every((email) => email.endsWith('@preview.invalid'))).toBe(true);
    const one = (userId: string) => send(t(), admin, 'GET', `/api/admin/users/${userId}`);
    expect(expectJson<AdminUser>(await one(link.user_id), 200).is_test).toBe(true);
    expect(expectJson<AdminUser>(await one(real.id), 200).is_test).toBe(false);

    for (const caller of [previewUser, real]) {
      for (const url of ['/api/admin/users', `/api/admin/users/${link.user_id}`]) {
        expect(expectJson<ErrorBody>(await send(t(), caller, 'GET', url), 403).code).toBe('FORBIDDEN');
      }
    }
  });
});

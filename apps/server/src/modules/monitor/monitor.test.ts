import type { DetailedParticipantRow, FullParticipantSummary, MonitorReply } from '@studychat/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, useTestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { buildParticipantRows, insertExperimentRow, insertParticipantRows } from '../../../test/factories.js';
import { createExperiment, participantAt, send } from '../participants/journey.fixtures.js';

describe.each(TEST_DIALECTS)('the study monitor on %s', (dialect) => {
  const t = useTestApp(dialect);
  let admin: TestUser;
  let experimentId: string;
  const who: Record<string, TestUser> = {};

  const monitor = async () =>
    expectJson<MonitorReply>(await send(t(), admin, 'GET', `/api/experiments/${experimentId}/monitor`), 200);
  const row = (m: MonitorReply, user: TestUser) => m.participants.find((p) => p.user_id === user.id);

  beforeAll(async () => {
    admin = await createAndLogin(t(), { isAdmin: true });
    experimentId = (await createExperiment(t(), admin)).id;
    // Stale only after a week while the journeys are driven (reading the sections moves the clock).
    expectJson(
      await send(t(), admin, 'PUT', `/api/experiments/${experimentId}/monitor/settings`, { stale_minutes: 10_080 }),
      200,
    );
    who.joined = await participantAt(t(), experimentId, 'joined');
    who.confirm = await participantAt(t(), experimentId, 'confirm');
    who.ceiling = await participantAt(t(), experimentId, 'baseline', { baseline: 7 });
    who.pre = await participantAt(t(), experimentId, 'pre');
    who.assigned = await participantAt(t(), experimentId, 'assigned');
    who.completed = await participantAt(t(), experimentId, 'completed');
    who.confirmDone = await participantAt(t(), experimentId, 'confirm');
    expectJson(
      await send(t(), who.confirmDone, 'POST', '/api/participants/completion', { experimentId, pathway: 'confirm' }),
      200,
    );
  });

  it('shows each participant at their step with their status, and a summary that adds up', async () => {
    const m = await monitor();
    expect(m.participants).toHaveLength(7);
    const at = (key: string) => row(m, who[key] as TestUser);
    expect(at('joined')).toMatchObject({ step: 'consent', status: 'in_progress', condition: null, stale: false });
    expect(at('confirm')).toMatchObject({ step: 'confirm_exit', status: 'screened_out', pathway: 'confirm' });
    expect(at('ceiling')).toMatchObject({ step: 'ceiling_exit', status: 'screened_out', pathway: 'ceiling' });
    expect(at('pre')).toMatchObject({ step: 'assignment', status: 'in_progress' });
    expect(at('assigned')).toMatchObject({ step: 'sections', section: 0, status: 'in_progress' });
    expect(at('completed')).toMatchObject({ step: 'completed', status: 'completed', pathway: 'complete' });
    expect(at('completed')?.chat_rounds).toBe(3);
    expect(at('completed')?.tokens).toBeGreaterThan(0);
    expect(at('confirmDone')).toMatchObject({ step: 'completed', status: 'completed', pathway: 'confirm' });
    expect(at('joined')?.login).toBe((who.joined as TestUser).email);
    expect(at('joined')?.prolific_pid).toMatch(/^PID-/);

    const s = m.summary;
    expect(s).toMatchObject({
      total: 7,
      screened_out: { confirm: 1, ceiling: 1 },
      not_yet_assigned: 2,
      in_progress: 1,
      stale: 0,
      completed: { complete: 1, confirm: 1, ceiling: 0 },
    });
    const counted = s.screened_out.confirm + s.screened_out.ceiling + s.not_yet_assigned + s.in_progress + s.stale;
    expect(counted + s.completed.complete + s.completed.confirm + s.completed.ceiling).toBe(s.total);
    expect(Object.values(s.conditions).reduce((a, b) => a + b, 0)).toBe(2);

    // The participant-summary route keeps the spec's fields and adds the same buckets.
    const summary = expectJson<FullParticipantSummary>(
      await send(t(), admin, 'GET', `/api/experiments/${experimentId}/participant-summary`),
      200,
    );
    expect(summary).toEqual(s);
  });

  it('counts the funnel with the CONSORT numbers', async () => {
    const { funnel } = await monitor();
    const reached = Object.fromEntries(funnel.steps.map((s) => [s.key, s.reached]));
    expect(reached).toEqual({
      logged_in: 7,
      joined: 7,
      consented: 6,
      entry: 6,
      baseline: 4,
      pre_survey: 3,
      assigned: 2,
      sections: 1,
      chat: 1,
      post_survey: 1,
      completed: 1,
    });
    expect(funnel.screened_out_confirm).toBe(2);
    expect(funnel.screened_out_ceiling).toBe(1);
    expect(funnel.completed).toEqual({ complete: 1, confirm: 1, ceiling: 0 });
    expect(Object.values(funnel.assigned).reduce((a, b) => a + b, 0)).toBe(2);
  });

  it('flags participants without activity for the stale minutes on the test clock; any call counts', async () => {
    expectJson(
      await send(t(), admin, 'PUT', `/api/experiments/${experimentId}/monitor/settings`, { stale_minutes: 5 }),
      200,
    );
    // Reading the sections moved the clock: everyone in progress is seen now, then nobody for 4, then 6 minutes.
    for (const key of ['joined', 'pre', 'assigned']) await send(t(), who[key], 'POST', '/api/participants/heartbeat');
    t().clock.advance(4 * 60_000);
    expect((await monitor()).summary.stale).toBe(0);
    t().clock.advance(2 * 60_000);
    let m = await monitor();
    // The three in progress are stale; the screened out and the completed never are.
    expect(m.summary).toMatchObject({ stale: 3, in_progress: 0, not_yet_assigned: 0, total: 7 });
    expect(row(m, who.pre as TestUser)).toMatchObject({ status: 'stale', stale: true });
    expect(row(m, who.confirm as TestUser)?.status).toBe('screened_out');
    const dropped = Object.fromEntries(m.funnel.steps.map((s) => [s.key, s.dropped]));
    expect(dropped).toMatchObject({ consented: 1, assigned: 1, sections: 1 });
    // participants-detailed carries the same status.
    const table = expectJson<DetailedParticipantRow[]>(
      await send(t(), admin, 'GET', `/api/experiments/${experimentId}/participants-detailed`),
      200,
    );
    expect(table.find((r) => r.user_id === (who.pre as TestUser).id)?.status).toBe('stale');
    expect(table.find((r) => r.user_id === (who.completed as TestUser).id)?.status).toBe('completed');

    // A heartbeat (or any participant call) is activity: back in progress, and seen just now.
    expectJson(await send(t(), who.pre, 'POST', '/api/participants/heartbeat'), 200);
    m = await monitor();
    expect(row(m, who.pre as TestUser)).toMatchObject({ status: 'in_progress', stale: false });
    expect(row(m, who.pre as TestUser)?.last_seen).toBe(t().clock.now.toISOString());
    expect(row(m, who.pre as TestUser)?.seconds_on_step).toBeGreaterThanOrEqual(6 * 60);
    await send(t(), who.joined, 'GET', `/api/participants/journey/${experimentId}`);
    expect(row(await monitor(), who.joined as TestUser)?.status).toBe('in_progress');
  });

  it('writes last seen at most once per participant per 30 seconds', async () => {
    const user = who.assigned as TestUser;
    const seen = async () =>
      (
        await t()
          .database.db.selectFrom('users')
          .select('last_seen_at')
          .where('id', '=', user.id)
          .executeTakeFirstOrThrow()
      ).last_seen_at;
    await send(t(), user, 'POST', '/api/participants/heartbeat');
    const first = new Date(String((await seen()) as unknown)).getTime();
    t().clock.advance(10_000);
    await send(t(), user, 'POST', '/api/participants/heartbeat');
    expect(new Date(String((await seen()) as unknown)).getTime()).toBe(first);
    t().clock.advance(25_000);
    await send(t(), user, 'POST', '/api/participants/heartbeat');
    expect(new Date(String((await seen()) as unknown)).getTime()).toBe(first + 35_000);
  });

  it('a participant’s login is their last seen, so their first calls after it write no last seen', async () => {
    t().clock.advance(60_000);
    const user = await createAndLogin(t());
    const loggedInAt = t().clock.now.getTime();
    const stored = await t()
      .database.db.selectFrom('users')
      .select(['last_seen_at', 'last_login_at'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(new Date(String(stored.last_seen_at as unknown)).getTime()).toBe(loggedInAt);
    const touches: string[] = [];
    t().database.queries.onQuery = (q) => {
      if (/last_seen_at/.test(q)) touches.push(q);
    };
    try {
      t().clock.advance(5_000);
      expectJson(await send(t(), user, 'POST', '/api/participants/heartbeat'), 200);
      expect(touches).toEqual([]);
      t().clock.advance(30_000);
      expectJson(await send(t(), user, 'POST', '/api/participants/heartbeat'), 200);
      expect(touches).toHaveLength(1);
    } finally {
      t().database.queries.onQuery = undefined;
    }
  });

  it('reports spend per condition and projects it at the target sample size', async () => {
    let m = await monitor();
    expect(m.spend.tokens).toBeGreaterThan(0);
    expect(m.spend.projected_usd).toBeNull();
    const byCondition = Object.values(m.spend.by_condition);
    expect(byCondition.reduce((a, b) => a + b.tokens, 0)).toBe(m.spend.tokens);
    const settings = expectJson(
      await send(t(), admin, 'PUT', `/api/experiments/${experimentId}/monitor/settings`, { target_sample_size: 300 }),
      200,
    );
    expect(settings).toEqual({ stale_minutes: 5, stale_minutes_set: true, target_sample_size: 300 });
    m = await monitor();
    expect(m.spend.target_sample_size).toBe(300);
    // One participant chatted: the projection is 300 times their usage.
    expect(m.spend.projected_tokens).toBe(m.spend.tokens * 300);
    expect(m.spend.projected_usd).toBeCloseTo((m.spend.cost_per_participant_usd ?? 0) * 300, 5);
  });

  it("shows the prompt cache's writes and reads in the spend (docs/decisions/0076)", async () => {
    expect((await monitor()).spend).toMatchObject({ cache_write_tokens: 0, cache_read_tokens: 0 });
    const { db } = t().database;
    await db
      .updateTable('chat_threads')
      .set({ cache_write_tokens: 50, cache_read_tokens: 700 })
      .where('experiment_id', '=', experimentId)
      .execute();
    expect((await monitor()).spend).toMatchObject({ cache_write_tokens: 50, cache_read_tokens: 700 });
    await db
      .updateTable('chat_threads')
      .set({ cache_write_tokens: 0, cache_read_tokens: 0 })
      .where('experiment_id', '=', experimentId)
      .execute();
  });

  it('refuses bad settings with 400 and unknown experiments with 404; analysts only read', async () => {
    const url = `/api/experiments/${experimentId}/monitor/settings`;
    for (const body of [{}, { stale_minutes: 0 }, { stale_minutes: 1.5 }, { target_sample_size: -1 }, { other: 1 }]) {
      const res = await send(t(), admin, 'PUT', url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await send(t(), admin, 'GET', `/api/experiments/${unknown}/monitor`)).statusCode).toBe(404);
    expect(
      (await send(t(), admin, 'PUT', `/api/experiments/${unknown}/monitor/settings`, { stale_minutes: 3 })).statusCode,
    ).toBe(404);
    expect((await send(t(), who.joined, 'GET', `/api/experiments/${experimentId}/monitor`)).statusCode).toBe(403);
    // Back to the default.
    const reset = expectJson(
      await send(t(), admin, 'PUT', url, { stale_minutes: null, target_sample_size: null }),
      200,
    );
    expect(reset).toEqual({ stale_minutes: 30, stale_minutes_set: false, target_sample_size: null });
  });

  it('warns when a stratum is more unbalanced than the permuted blocks allow, with its p-value', async () => {
    const db = t().database.db;
    const id = String((await insertExperimentRow(db)).id);
    const rows = [
      ...Array.from({ length: 9 }, () =>
        buildParticipantRows(id, { assignment: { assigned_condition: 'mmr', stratum: '3-4' } }),
      ),
      ...Array.from({ length: 3 }, () =>
        buildParticipantRows(id, { assignment: { assigned_condition: 'control', stratum: '3-4' } }),
      ),
      ...Array.from({ length: 2 }, () =>
        buildParticipantRows(id, { assignment: { assigned_condition: 'mmr', stratum: '1-2' } }),
      ),
    ];
    await insertParticipantRows(db, rows);
    const m = expectJson<MonitorReply>(await send(t(), admin, 'GET', `/api/experiments/${id}/monitor`), 200);
    const s34 = m.srm.strata.find((s) => s.stratum === '3-4');
    expect(s34).toMatchObject({
      counts: { mmr: 9, control: 3 },
      chi_square: 3,
      imbalance: 6,
      allowed_imbalance: 2,
      warning: true,
    });
    expect(s34?.p_value).toBeCloseTo(0.0833, 3);
    // 2 to 0 is what one permuted block can give: no warning.
    expect(m.srm.strata.find((s) => s.stratum === '1-2')).toMatchObject({ imbalance: 2, warning: false });
    expect(m.srm.warning).toContain('stratum 3-4 (mmr 9, control 3, p = 0.083)');
    // Seeded without events: joined time is their step time, and they count as in progress or stale.
    expect(m.summary.total).toBe(14);
  });

  it('stops the time on step at completion, while an unfinished participant’s keeps counting (issue 34)', async () => {
    const finisher = await participantAt(t(), experimentId, 'confirm');
    const waiting = await participantAt(t(), experimentId, 'joined');
    t().clock.advance(90_000);
    expectJson(
      await send(t(), finisher, 'POST', '/api/participants/completion', { experimentId, pathway: 'confirm' }),
      200,
    );
    const before = await monitor();
    const finished = row(before, finisher)?.seconds_on_step;
    expect(row(before, finisher)?.status).toBe('completed');
    expect(row(before, waiting)?.seconds_on_step).toBeGreaterThanOrEqual(90);
    // Ten minutes: within the sessions' idle limit.
    t().clock.advance(10 * 60_000);
    const after = await monitor();
    expect(row(after, finisher)?.seconds_on_step).toBe(finished);
    expect(row(after, waiting)?.seconds_on_step).toBe((row(before, waiting)?.seconds_on_step ?? 0) + 600);
  });
});

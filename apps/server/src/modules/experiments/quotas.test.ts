import { QUOTA_FULL_TEXT, type Admission, type Quota, type QuotasReply } from '@studychat/contracts';
import { describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, newSession, useTestApp, type TestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { insertMemberRow, insertUserRow } from '../../../test/factories.js';
import { assignmentOf, createExperiment, participantAt, send } from '../participants/journey.fixtures.js';

// Quotas per condition and stratum on the built-in study (docs/decisions/0077); flows: flow/flow.test.ts.

type ErrorBody = { error: string; code: string };

describe.each(TEST_DIALECTS)('quotas on %s', (dialect) => {
  const t = useTestApp(dialect);

  async function setQuotas(admin: TestUser, id: string, quotas: Quota[]) {
    return send(t(), admin, 'PUT', `/api/experiments/${id}/quotas`, { quotas });
  }

  const assign = (user: TestUser, experimentId: string) =>
    send(t(), user, 'POST', '/api/participants/assign-condition', { experimentId });

  async function conditionOf(user: TestUser, experimentId: string): Promise<string | null> {
    return (await assignmentOf(t(), user, experimentId)).assigned_condition;
  }

  async function join(experimentId: string) {
    const user = await createAndLogin(t());
    return send(t(), user, 'POST', '/api/participants', {
      user_id: user.id,
      experiment_id: experimentId,
      prolific_pid: `PID-${user.id.slice(0, 8)}`,
    });
  }

  it('lists none at first, with the conditions and strata a quota may name', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    const reply = expectJson<QuotasReply>(await send(t(), admin, 'GET', `/api/experiments/${id}/quotas`), 200);
    expect(reply).toEqual({ quotas: [], conditions: ['mmr', 'control'], strata: ['1-2', '3-4', '5-6'], full: false });
  });

  it('a full condition stops assigning to it: every later participant gets the other', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    const set = expectJson<QuotasReply>(await setQuotas(admin, id, [{ condition: 'mmr', stratum: null, max: 1 }]), 200);
    expect(set.quotas).toEqual([{ condition: 'mmr', stratum: null, max: 1, filled: 0 }]);
    const conditions: (string | null)[] = [];
    // Blocks of four hold two of each: the first mmr comes within three participants, then only control.
    for (let i = 0; i < 6; i++) {
      const user = await participantAt(t(), id, 'assigned', { baseline: i % 2 === 0 ? 4 : 1 });
      conditions.push(await conditionOf(user, id));
    }
    expect(conditions.filter((c) => c === 'mmr')).toHaveLength(1);
    expect(conditions.filter((c) => c === 'control')).toHaveLength(5);
    const reply = expectJson<QuotasReply>(await send(t(), admin, 'GET', `/api/experiments/${id}/quotas`), 200);
    expect(reply.quotas).toEqual([{ condition: 'mmr', stratum: null, max: 1, filled: 1 }]);
    expect(reply.full).toBe(false);
  });

  it('a full stratum cell refuses only that stratum; when every cell is full, new joins get the closed page', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    const quotas: Quota[] = [
      { condition: 'mmr', stratum: '3-4', max: 1 },
      { condition: 'control', stratum: '3-4', max: 1 },
    ];
    expectJson(await setQuotas(admin, id, quotas), 200);
    const first = await participantAt(t(), id, 'assigned', { baseline: 4 });
    const second = await participantAt(t(), id, 'assigned', { baseline: 3 });
    expect([await conditionOf(first, id), await conditionOf(second, id)].sort()).toEqual(['control', 'mmr']);
    // The third in 3-4 finds no place: told so, nothing assigned.
    const third = await participantAt(t(), id, 'pre', { baseline: 4 });
    const refused = expectJson<ErrorBody>(await assign(third, id), 409);
    expect(refused).toEqual({ error: QUOTA_FULL_TEXT, code: 'QUOTA_FULL' });
    expect(await conditionOf(third, id)).toBeNull();
    // Another stratum still has places, so joining stays open.
    const low = await participantAt(t(), id, 'assigned', { baseline: 1 });
    expect(await conditionOf(low, id)).not.toBeNull();
    expect((await join(id)).statusCode).toBe(201);

    // Every cell full: quotas on both conditions in every stratum, filled.
    const everywhere: Quota[] = [
      { condition: 'mmr', stratum: null, max: 1 },
      { condition: 'control', stratum: null, max: 1 },
    ];
    const full = expectJson<QuotasReply>(await setQuotas(admin, id, everywhere), 200);
    expect(full.full).toBe(true);
    expect(full.quotas.map((q) => q.filled).reduce((a, b) => a + b)).toBe(3);
    const closed = expectJson<ErrorBody>(await join(id), 403);
    expect(closed.code).toBe('EXPERIMENT_CLOSED');
    const admission = expectJson<Admission>(
      await send(t(), undefined, 'GET', `/api/participants/admission/${id}`),
      200,
    );
    expect(admission).toMatchObject({ admitting: false, reason: 'closed' });

    // Raising a quota opens the cell again, and joining with it.
    expectJson(await setQuotas(admin, id, [{ condition: 'mmr', stratum: null, max: 5 }]), 200);
    expect((await join(id)).statusCode).toBe(201);
    expectJson(await assign(third, id), 200);
    expect(await conditionOf(third, id)).not.toBeNull();
  });

  it('two assignments racing for the last place in a cell do not both get it', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    expectJson(
      await setQuotas(admin, id, [
        { condition: 'mmr', stratum: '3-4', max: 1 },
        { condition: 'control', stratum: '3-4', max: 1 },
      ]),
      200,
    );
    const racers = [];
    for (let i = 0; i < 4; i++) racers.push(await participantAt(t(), id, 'pre', { baseline: 4 }));
    const replies = await Promise.all(racers.map((user) => assign(user, id)));
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 200, 409, 409]);
    for (const r of replies.filter((r) => r.statusCode === 409)) expect(r.json()).toMatchObject({ code: 'QUOTA_FULL' });
    const assigned = await t()
      .database.db.selectFrom('assignments')
      .select('assigned_condition')
      .where('experiment_id', '=', id)
      .where('assigned_condition', 'is not', null)
      .execute();
    expect(assigned.map((a) => a.assigned_condition).sort()).toEqual(['control', 'mmr']);
  });

  it('validates: conditions and strata of the study, once each, a whole max of at least 1; audited; admins only', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    const bad = async (quotas: unknown, pattern: RegExp) => {
      const res = await send(t(), admin, 'PUT', `/api/experiments/${id}/quotas`, { quotas });
      const body = expectJson<ErrorBody>(res, 400);
      expect(body.error).toMatch(pattern);
    };
    await bad([{ condition: 'placebo', stratum: null, max: 5 }], /not a condition of this experiment's study/);
    await bad([{ condition: 'mmr', stratum: '7', max: 5 }], /not a stratum of this study/);
    await bad(
      [
        { condition: 'mmr', stratum: null, max: 5 },
        { condition: 'mmr', stratum: null, max: 6 },
      ],
      /a second quota for mmr/,
    );
    await bad([{ condition: 'mmr', stratum: null, max: 0 }], /at least 1/);
    await bad([{ condition: 'mmr', stratum: null, max: 1.5 }], /whole number/);
    await bad([{ condition: 'mmr', stratum: '', max: 2 }], /stratum cannot be empty/);
    // Nothing was written.
    const none = expectJson<QuotasReply>(await send(t(), admin, 'GET', `/api/experiments/${id}/quotas`), 200);
    expect(none.quotas).toEqual([]);

    expectJson(await setQuotas(admin, id, [{ condition: 'control', stratum: '1-2', max: 40 }]), 200);
    const audit = await t()
      .database.db.selectFrom('audit_log')
      .select(['actor_id', 'details'])
      .where('action', '=', 'experiment.quotas.update')
      .where('target_id', '=', id)
      .execute();
    expect(audit.map((a) => JSON.parse(String(a.details)))).toEqual([
      { quotas: [{ condition: 'control', stratum: '1-2', max: 40 }] },
    ]);
    // An empty list removes them.
    expect(expectJson<QuotasReply>(await setQuotas(admin, id, []), 200).quotas).toEqual([]);

    const row = await insertUserRow(t().database.db, { role: 'analyst' });
    const analyst = await newSession(t() as TestApp, { id: String(row.id), email: row.email }, 'analyst');
    // The experiment is its creator's (docs/decisions/0087): the analyst sees it once it is shared.
    expect((await send(t(), analyst, 'GET', `/api/experiments/${id}/quotas`)).statusCode).toBe(404);
    await insertMemberRow(t().database.db, id, String(row.id), 'viewer');
    expect((await send(t(), analyst, 'GET', `/api/experiments/${id}/quotas`)).statusCode).toBe(200);
    expect((await setQuotas(analyst, id, [])).statusCode).toBe(403);
    expect((await send(t(), undefined, 'GET', `/api/experiments/${id}/quotas`)).statusCode).toBe(401);
  });
});

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NOT_ADMITTING_TEXT, type Admission, type ChatLimitsReply, type Journey } from '@studychat/contracts';
import { createAndLogin, expectJson, useTestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { createExperiment, send } from './journey.fixtures.js';

// When an experiment's chat budget is close to spent, new participants are not admitted and those already in
// finish (issue 28, docs/decisions/0073).
describe.each(TEST_DIALECTS)('admission by the chat budget on %s', (dialect) => {
  const t = useTestApp(dialect);

  async function setup(limits: Record<string, unknown>) {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const experiment = await createExperiment(t(), admin);
    expectJson(
      await send(t(), admin, 'PUT', `/api/experiments/${experiment.id}/chat-limits`, { overrides: limits }),
      200,
    );
    return { admin, experimentId: experiment.id };
  }

  const join = (user: TestUser, experimentId: string) =>
    send(t(), user, 'POST', '/api/participants', {
      user_id: user.id,
      experiment_id: experimentId,
      prolific_pid: `PID-${user.id.slice(0, 8)}`,
    });
  const admission = async (experimentId: string) =>
    expectJson<Admission>(await send(t(), undefined, 'GET', `/api/participants/admission/${experimentId}`), 200);

  /** The experiment's chats have cost `usd` so far (one participant's thread). */
  async function spent(experimentId: string, usd: number) {
    const user = await createAndLogin(t());
    const now = t().clock.fn().toISOString();
    await t()
      .database.db.insertInto('chat_threads')
      .values({
        id: randomUUID(),
        user_id: user.id,
        experiment_id: experimentId,
        condition: 'mmr',
        title: null,
        reply_lock_id: null,
        reply_lock_until: null,
        cost_usd: usd,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }

  it('admits until 95% of the budget is spent, then refuses new joins with 403 and writes nothing', async () => {
    const { admin, experimentId } = await setup({ budgetUsd: 1 });
    const early = await createAndLogin(t());
    expectJson(await join(early, experimentId), 201);
    await spent(experimentId, 0.94);
    expect(await admission(experimentId)).toEqual({ admitting: true, message: null });
    await spent(experimentId, 0.01);
    expect(await admission(experimentId)).toEqual({ admitting: false, message: NOT_ADMITTING_TEXT });

    const late = await createAndLogin(t());
    expect(expectJson(await join(late, experimentId), 403)).toEqual({
      error: NOT_ADMITTING_TEXT,
      code: 'NOT_ADMITTING',
    });
    const { db } = t().database;
    expect(await db.selectFrom('assignments').select('id').where('user_id', '=', late.id).execute()).toEqual([]);
    expect(
      await db.selectFrom('experiment_prolific_ids').select('assignment_id').where('user_id', '=', late.id).execute(),
    ).toEqual([]);
    expect(await db.selectFrom('journey_events').select('seq').where('user_id', '=', late.id).execute()).toEqual([]);

    // Whoever joined before goes on: their repeat join is the usual 409, and their journey reads as before.
    expect(expectJson<{ code: string }>(await join(early, experimentId), 409).code).toBe('CONFLICT');
    const journey = expectJson<Journey>(
      await send(t(), early, 'GET', `/api/participants/journey/${experimentId}`),
      200,
    );
    expect(journey.step).toBe('consent');

    // The admin page says so; raising the budget admits again.
    const limits = expectJson<ChatLimitsReply>(
      await send(t(), admin, 'GET', `/api/experiments/${experimentId}/chat-limits`),
      200,
    );
    expect(limits.budget).toMatchObject({ state: 'warning', admitting: false });
    expect(limits.effective.admitPercent).toBe(95);
    await send(t(), admin, 'PUT', `/api/experiments/${experimentId}/chat-limits`, { overrides: { budgetUsd: 2 } });
    expect(await admission(experimentId)).toEqual({ admitting: true, message: null });
    expectJson(await join(late, experimentId), 201);
  });

  it("follows the experiment's own admit percent, and admits everyone without a budget", async () => {
    const own = await setup({ budgetUsd: 1, admitPercent: 50 });
    await spent(own.experimentId, 0.5);
    expect((await admission(own.experimentId)).admitting).toBe(false);
    expect(expectJson<{ code: string }>(await join(await createAndLogin(t()), own.experimentId), 403).code).toBe(
      'NOT_ADMITTING',
    );

    const none = await setup({});
    await spent(none.experimentId, 1000);
    expect(await admission(none.experimentId)).toEqual({ admitting: true, message: null });
    expectJson(await join(await createAndLogin(t()), none.experimentId), 201);
  });

  it('answers 404 for an unknown experiment and refuses an admit percent outside 1 to 100', async () => {
    const missing = await send(t(), undefined, 'GET', `/api/participants/admission/${randomUUID()}`);
    expect(expectJson<{ code: string }>(missing, 404).code).toBe('NOT_FOUND');
    const { admin, experimentId } = await setup({});
    for (const admitPercent of [0, 101, 50.5]) {
      const res = await send(t(), admin, 'PUT', `/api/experiments/${experimentId}/chat-limits`, {
        overrides: { admitPercent },
      });
      expect(res.statusCode).toBe(400);
    }
  });
});

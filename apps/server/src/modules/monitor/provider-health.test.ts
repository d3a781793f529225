import type { ProviderHealthReply } from '@studychat/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, useTestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { buildMessage, buildThread, insertExperimentRow, insertMany, insertUserRow } from '../../../test/factories.js';
import { providerHealth } from './provider-health.js';

// The provider's health in the monitor (docs/decisions/0076): errors, waits and fallbacks of the experiment's
// replies over the last 15 minutes, hour and day, as stored; the pure rule, then the route on both databases.

const NOW = new Date('2026-11-20T10:00:00.000Z');
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000).toISOString();

describe('provider health (rule)', () => {
  it('counts errors, waits (median and longest) and fallbacks in each period back from now', () => {
    const rows = [
      { status: 'complete', queue_ms: 4000, fallback_from: null, created_at: ago(5) },
      { status: 'complete', queue_ms: 1000, fallback_from: 'claude-opus-4-5', created_at: ago(10) },
      { status: 'error', queue_ms: null, fallback_from: null, created_at: ago(30) },
      { status: 'complete', queue_ms: 9000, fallback_from: null, created_at: ago(120) },
      { status: 'interrupted', queue_ms: 0, fallback_from: null, created_at: new Date(ago(1000)) },
    ];
    expect(providerHealth(rows, NOW).periods).toEqual([
      { minutes: 15, replies: 2, errors: 0, waited: 2, waitMedianMs: 2500, waitMaxMs: 4000, fallbacks: 1 },
      { minutes: 60, replies: 3, errors: 1, waited: 2, waitMedianMs: 2500, waitMaxMs: 4000, fallbacks: 1 },
      { minutes: 1440, replies: 5, errors: 1, waited: 3, waitMedianMs: 4000, waitMaxMs: 9000, fallbacks: 1 },
    ]);
  });

  it('says none waited with nulls, not zeros', () => {
    const [quiet] = providerHealth([], NOW).periods;
    expect(quiet).toMatchObject({ replies: 0, waited: 0, waitMedianMs: null, waitMaxMs: null });
  });
});

describe.each(TEST_DIALECTS)('provider health route on %s', (dialect) => {
  const t = useTestApp(dialect);
  let admin: TestUser;
  beforeEach(async () => {
    admin ??= await createAndLogin(t(), { isAdmin: true });
    t().clock.now = new Date(NOW);
  });

  it('reads the experiment’s stored replies only, over the last day', async () => {
    const db = t().database.db;
    const [experiment, other, user] = [
      await insertExperimentRow(db),
      await insertExperimentRow(db),
      await insertUserRow(db),
    ];
    const thread = buildThread({ userId: String(user.id), experimentId: String(experiment.id) });
    const elsewhere = buildThread({ userId: String(user.id), experimentId: String(other.id) });
    await insertMany(db, 'chat_threads', [thread, elsewhere]);
    await insertMany(db, 'chat_messages', [
      buildMessage(thread.id, 0, 'assistant', 'Hello', { created_at: ago(3), queue_ms: 1500 }),
      buildMessage(thread.id, 1, 'user', 'Hi', { created_at: ago(2) }),
      buildMessage(thread.id, 2, 'assistant', '', { created_at: ago(1), status: 'error', error_message: '529' }),
      buildMessage(thread.id, 3, 'user', 'Again', { created_at: ago(1) }),
      buildMessage(thread.id, 4, 'assistant', 'Yes', { created_at: ago(0), fallback_from: 'claude-opus-4-5' }),
      buildMessage(thread.id, 5, 'assistant', 'Old', { created_at: ago(2000), status: 'error' }),
      buildMessage(elsewhere.id, 0, 'assistant', 'Not this one', { created_at: ago(1), status: 'error' }),
    ]);
    const res = await t().app.inject({
      method: 'GET',
      url: `/api/experiments/${String(experiment.id)}/monitor/provider-health`,
      headers: admin.headers,
    });
    const reply = expectJson<ProviderHealthReply>(res, 200);
    const expected = { replies: 3, errors: 1, waited: 1, waitMedianMs: 1500, waitMaxMs: 1500, fallbacks: 1 };
    expect(reply.periods).toEqual([
      { minutes: 15, ...expected },
      { minutes: 60, ...expected },
      { minutes: 1440, ...expected },
    ]);
  });

  it('answers 404 for an unknown experiment', async () => {
    const res = await t().app.inject({
      method: 'GET',
      url: '/api/experiments/00000000-0000-4000-8000-0000000000ff/monitor/provider-health',
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json<{ code: string }>().code).toBe('NOT_FOUND');
  });
});

import type { MonitorReply } from '@studychat/contracts';
import { describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, useTestApp } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { createExperiment, participantAt, send } from '../participants/journey.fixtures.js';

// The monitor's "Include test runs" (docs/decisions/0063): test runs ("preview as participant") are listed,
// marked, only on request; the numbers count real participants either way. The shared snapshot is on here
// (it is off in other tests), so the two lists must not be served from one cached snapshot.

describe.each(TEST_DIALECTS)('test runs in the monitor on request, on %s', (dialect) => {
  const t = useTestApp(dialect, {
    config: { monitorStream: { pollMs: 20, maxMs: 60, keepAliveMs: 1000, snapshotMs: 60_000 } },
  });

  it('lists test runs marked only with include_tests=true, and keeps them out of every number', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    const real = await participantAt(t(), id, 'assigned');
    expectJson(await send(t(), admin, 'POST', `/api/experiments/${id}/previews`, { condition: 'control' }), 201);
    const get = async (query = '') =>
      expectJson<MonitorReply>(await send(t(), admin, 'GET', `/api/experiments/${id}/monitor${query}`), 200);

    const plain = await get();
    expect(plain.participants.map((p) => [p.user_id, p.is_test])).toEqual([[real.id, false]]);
    const withTests = await get('?include_tests=true');
    expect(withTests.participants).toHaveLength(2);
    const test = withTests.participants.find((p) => p.is_test);
    expect(test).toMatchObject({ condition: 'control', prolific_pid: expect.stringMatching(/^PREVIEW-/) });
    expect(withTests.participants.find((p) => !p.is_test)?.user_id).toBe(real.id);
    // The numbers are the real participants' whatever the list shows.
    expect(withTests.summary).toEqual(plain.summary);
    expect(withTests.summary.total).toBe(1);
    expect(withTests.funnel).toEqual(plain.funnel);
    expect(withTests.srm).toEqual(plain.srm);
    expect(withTests.spend).toEqual(plain.spend);
    // Each list is shared under its own key: the plain one again is still without the test run.
    expect((await get('?include_tests=false')).participants.map((p) => p.user_id)).toEqual([real.id]);
    expect((await get()).participants).toHaveLength(1);
    expect((await get('?include_tests=true')).participants).toHaveLength(2);
  });

  it('refuses a bad include_tests with 400 and { error, code }, a participant with 403, an unknown experiment with 404', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    for (const value of ['yes', '1', 'TRUE', '<script>', '']) {
      const res = await send(
        t(),
        admin,
        'GET',
        `/api/experiments/${id}/monitor?include_tests=${encodeURIComponent(value)}`,
      );
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ error: expect.any(String), code: 'VALIDATION_FAILED' });
    }
    const participant = await participantAt(t(), id, 'joined');
    expect((await send(t(), participant, 'GET', `/api/experiments/${id}/monitor?include_tests=true`)).statusCode).toBe(
      403,
    );
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await send(t(), admin, 'GET', `/api/experiments/${unknown}/monitor?include_tests=true`)).statusCode).toBe(
      404,
    );
  });
});

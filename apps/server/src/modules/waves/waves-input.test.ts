import { describe, expect, it } from 'vitest';
import { createAndLogin, useTestApp } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { createExperiment, send } from '../participants/journey.fixtures.js';

// Hostile text on the wave routes (docs/decisions/0091): a NUL and a non-id are refused with a clear 400, 100 KB with 413,
// and nothing stored; an emoji in a group's name is ordinary text (refused only for want of a Prolific token).

describe.each(TEST_DIALECTS)('wave routes with hostile input on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('answers 400 to a NUL, 100 KB or a non-id, and stores nothing', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    // 100 KB is over the server's body limit: 413, with its own { error, code }.
    for (const [follows, status] of [
      ['not-an-id', 400],
      [`${id}\u0000`, 400],
      ['x'.repeat(100_000), 413],
    ] as const) {
      const res = await send(t(), admin, 'PUT', `/api/experiments/${id}/wave`, { follows_experiment_id: follows });
      expect(res.statusCode).toBe(status);
      expect(res.json()).toMatchObject({ code: expect.any(String), error: expect.any(String) });
    }
    const url = `/api/experiments/${id}/prolific/participant-group`;
    for (const [name, status] of [
      ['Wave\u00001', 400],
      ['x'.repeat(100_000), 413],
    ] as const) {
      const res = await send(t(), admin, 'POST', url, { name, workspace_id: 'WS1', pathways: ['complete'] });
      expect(res.statusCode).toBe(status);
    }
    const emoji = await send(t(), admin, 'POST', url, {
      name: 'Wave 1 🌊',
      workspace_id: 'WS1',
      pathways: ['complete'],
    });
    expect([emoji.statusCode, emoji.json().code]).toEqual([409, 'PROLIFIC_NOT_CONFIGURED']);
    const stored = await t()
      .database.db.selectFrom('experiment_waves')
      .select('experiment_id')
      .where('experiment_id', '=', id)
      .execute();
    expect(stored).toEqual([]);
    expect(await t().database.db.selectFrom('prolific_participant_groups').selectAll().execute()).toEqual([]);
  });
});

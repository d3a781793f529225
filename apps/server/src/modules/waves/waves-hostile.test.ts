import { NOT_IN_EARLIER_WAVE_TEXT } from '@studychat/contracts';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAndLogin, createTestApp, expectJson, type TestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS, dropTestSchemas } from '../../../test/databases.js';
import { seedParticipant } from '../../../test/factories.js';
import { createExperiment, send } from '../participants/journey.fixtures.js';
import { markWithdrawn } from '../withdrawal/withdrawn-ids.js';

// Hostile tests of follow-up waves (docs/decisions/0091): the link-only landing refuses a Prolific id that did
// not finish wave 1 (dropped out, withdrawn, only a test run) and leaves no login, assignment or claim behind; a
// chain of three waves checks the wave just before, and numbers each wave alike in every wave's waves.csv; odd
// Prolific ids are quoted in waves.csv.

describe.each(TEST_DIALECTS)('follow-up waves, hostile, on %s', (dialect) => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await createAndLogin(t, { isAdmin: true });
  });
  afterAll(async () => {
    await t.app.close();
    await t.database.close();
    await dropTestSchemas();
  });

  const setWave = (experimentId: string, follows: string | null) =>
    send(t, admin, 'PUT', `/api/experiments/${experimentId}/wave`, { follows_experiment_id: follows });
  const linkJoin = (experimentId: string, prolificPid: string) =>
    send(t, undefined, 'POST', '/api/prolific/join', {
      experimentId,
      prolificPid,
      studyId: 'STUDYHOSTILE1',
      sessionId: `SESSION${prolificPid.length}`,
    });
  async function inWave(experimentId: string, pid: string, pathway: string | null, isTest = false) {
    return seedParticipant(t.database.db, experimentId, {
      assignment: {
        prolific_pid: pid,
        assigned_condition: 'mmr',
        completion_pathway: pathway,
        completed_at: pathway ? '2026-11-20T10:00:00.000Z' : null,
        is_test: isTest,
      },
    });
  }
  async function withLinkJoin(): Promise<{ id: string }> {
    const e = await createExperiment(t, admin);
    expectJson(await send(t, admin, 'PUT', `/api/experiments/${e.id}/prolific-link-join`, { enabled: true }), 200);
    return e;
  }
  const counts = async (experimentId: string) => ({
    users: Number(
      (
        await t.database.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    assignments: (
      await t.database.db.selectFrom('assignments').select('id').where('experiment_id', '=', experimentId).execute()
    ).length,
  });

  it('refuses at the link-only landing a dropped-out, withdrawn or test-only wave-1 id, leaving nothing', async () => {
    const first = await createExperiment(t, admin);
    const second = await withLinkJoin();
    expectJson(await setWave(second.id, first.id), 200);
    await inWave(first.id, 'PIDDROPPED', null);
    await inWave(first.id, 'PIDWITHDRAWN', 'complete');
    await markWithdrawn(t.database.db, first.id, 'PIDWITHDRAWN', '2026-11-21T10:00:00.000Z');
    await inWave(first.id, 'PIDTESTONLY', 'complete', true);
    await inWave(first.id, 'PIDFINISHED', 'complete');

    const before = await counts(second.id);
    for (const pid of ['PIDDROPPED', 'PIDWITHDRAWN', 'PIDTESTONLY', 'PIDNEVER']) {
      const res = await linkJoin(second.id, pid);
      expect([pid, res.statusCode, res.json()]).toEqual([
        pid,
        403,
        { error: NOT_IN_EARLIER_WAVE_TEXT, code: 'NOT_IN_EARLIER_WAVE' },
      ]);
      // Twice: still refused, not taken for a claim of the first try.
      expect((await linkJoin(second.id, pid)).statusCode).toBe(403);
    }
    expect(await counts(second.id)).toEqual(before);

    const ok = await linkJoin(second.id, 'PIDFINISHED');
    expect(ok.statusCode).toBe(200);
    expect(await counts(second.id)).toEqual({ users: before.users + 1, assignments: 1 });
  });

  it('checks the wave just before in a chain of three, and numbers the waves alike in each package', async () => {
    const first = await createExperiment(t, admin);
    const second = await withLinkJoin();
    const third = await withLinkJoin();
    expectJson(await setWave(second.id, first.id), 200);
    expectJson(await setWave(third.id, second.id), 200);
    // A loop through three: wave 1 cannot follow wave 3.
    expect((await setWave(first.id, third.id)).statusCode).toBe(400);

    await inWave(first.id, 'PIDALLTHREE', 'complete');
    await inWave(first.id, 'PIDSKIPS2', 'complete');
    expect((await linkJoin(second.id, 'PIDALLTHREE')).statusCode).toBe(200);
    // Finished wave 1 but never took wave 2: wave 3 refuses.
    expect((await linkJoin(third.id, 'PIDSKIPS2')).json().code).toBe('NOT_IN_EARLIER_WAVE');
    // In wave 2 but not finished yet: refused too; once finished, admitted.
    expect((await linkJoin(third.id, 'PIDALLTHREE')).json().code).toBe('NOT_IN_EARLIER_WAVE');
    await t.database.db
      .updateTable('assignments')
      .set({ completion_pathway: 'complete', completed_at: '2026-11-22T10:00:00.000Z' })
      .where('experiment_id', '=', second.id)
      .execute();
    expect((await linkJoin(third.id, 'PIDALLTHREE')).statusCode).toBe(200);

    for (const e of [first, second, third]) {
      const zip = await send(t, admin, 'GET', `/api/experiments/${e.id}/export-package`);
      expect(zip.statusCode).toBe(200);
      const csv = strFromU8(unzipSync(new Uint8Array(zip.rawPayload))['waves.csv'] ?? new Uint8Array());
      const rows = csv
        .trim()
        .split(/\r?\n/)
        .slice(1)
        .filter((r) => r.startsWith('PIDALLTHREE,'))
        .map((r) => r.split(',').slice(1, 3).join(','));
      expect(rows).toEqual([`1,${first.id}`, `2,${second.id}`, `3,${third.id}`]);
    }
  });

  it('quotes a Prolific id with a comma, a quote or a line break in waves.csv', async () => {
    const first = await createExperiment(t, admin);
    const second = await createExperiment(t, admin);
    expectJson(await setWave(second.id, first.id), 200);
    await inWave(first.id, '=HYPERLINK("x"),1', 'complete');
    const zip = await send(t, admin, 'GET', `/api/experiments/${first.id}/export-package`);
    const csv = strFromU8(unzipSync(new Uint8Array(zip.rawPayload))['waves.csv'] ?? new Uint8Array());
    expect(csv.split('\n')[1]).toMatch(/^"=HYPERLINK\(""x""\),1",1,/);
  });
  it('refuses the participant group to a non-member (404) and hostile pathways (400), writing nothing', async () => {
    const first = await createExperiment(t, admin);
    await inWave(first.id, 'PIDGROUP1', 'complete');
    const url = `/api/experiments/${first.id}/prolific/participant-group`;
    const body = (pathways: unknown) => ({ name: 'Wave 2', workspace_id: 'WS1', pathways });
    const stranger = await createAndLogin(t, { isAdmin: true });
    expect((await send(t, stranger, 'GET', url)).statusCode).toBe(404);
    expect((await send(t, stranger, 'POST', url, body(['complete']))).statusCode).toBe(404);
    for (const pathways of [
      ["complete' or 1=1 --"],
      ['complete', '../x'],
      Array.from({ length: 21 }, (_, i) => `p${i}`),
      [],
    ]) {
      const res = await send(t, admin, 'POST', url, body(pathways));
      expect([res.statusCode, res.json().code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    const groups = await t.database.db
      .selectFrom('audit_log')
      .select('id')
      .where('target_id', '=', first.id)
      .where('action', '=', 'prolific.participant_group')
      .execute();
    expect(groups).toEqual([]);
  });
});

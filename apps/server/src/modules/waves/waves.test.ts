import { useFakeProlificApp } from '../../../test/fake-prolific-app.js';
import type { ParticipantGroupResult, WaveSetting } from '@studychat/contracts';
import { NOT_IN_EARLIER_WAVE_TEXT } from '@studychat/contracts';
import { strFromU8, unzipSync } from 'fflate';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, newSession, type TestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { insertUserRow, seedParticipant } from '../../../test/factories.js';
import type { FakeProlific } from '../../../test/fakes/prolific-fake.js';
import { createExperiment, send } from '../participants/journey.fixtures.js';

// Follow-up waves (issue 33, docs/decisions/0091): a wave-2 experiment follows wave 1 (never itself, never in a
// loop, never one the caller cannot see, fixed once real participants joined); its landing admits only a Prolific
// id that finished wave 1; a Prolific participant group of wave 1's chosen completers is made once and then added
// to, one group under a double click; the data package joins the waves by Prolific id.

describe.each(TEST_DIALECTS)('follow-up waves on %s', (dialect) => {
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
    fake.participantGroups.length = 0;
  });

  const setWave = (experimentId: string, follows: string | null, who = admin) =>
    send(t, who, 'PUT', `/api/experiments/${experimentId}/wave`, { follows_experiment_id: follows });
  const wave = async (experimentId: string) =>
    expectJson<WaveSetting>(await send(t, admin, 'GET', `/api/experiments/${experimentId}/wave`), 200);

  /** A real participant of wave 1 with this Prolific id, finished on `pathway` (or not finished). */
  async function inWave1(experimentId: string, pid: string, pathway: string | null) {
    return seedParticipant(t.database.db, experimentId, {
      assignment: {
        prolific_pid: pid,
        assigned_condition: 'mmr',
        completion_pathway: pathway,
        completed_at: pathway ? '2026-11-20T10:00:00.000Z' : null,
      },
    });
  }

  /** A study login that tries to join the experiment with this Prolific id. */
  async function join(experimentId: string, pid: string) {
    const row = await insertUserRow(t.database.db, { role: 'participant' });
    const user = await newSession(t, { id: String(row.id), email: row.email }, 'participant');
    const res = await send(t, user, 'POST', '/api/participants', {
      user_id: user.id,
      experiment_id: experimentId,
      prolific_pid: pid,
    });
    return { res, user };
  }

  it('follows wave 1, shown from both sides; never itself, a loop or an experiment the caller cannot see', async () => {
    const first = await createExperiment(t, admin);
    const second = await createExperiment(t, admin);
    const setting = expectJson<WaveSetting>(await setWave(second.id, first.id), 200);
    expect(setting).toEqual({ follows: { id: first.id, name: first.name }, followedBy: [], locked: false });
    expect((await wave(first.id)).followedBy).toEqual([{ id: second.id, name: second.name }]);

    const itself = await setWave(first.id, first.id);
    expect([itself.statusCode, itself.json().code]).toEqual([400, 'BAD_REQUEST']);
    const loop = await setWave(first.id, second.id);
    expect([loop.statusCode, loop.json().error]).toEqual([
      400,
      'That experiment already follows this one: the waves would go round in a loop.',
    ]);
    // Another researcher's experiment: refused word for word as one that does not exist.
    const other = await createAndLogin(t, { isAdmin: true });
    const theirs = await createExperiment(t, other);
    const hidden = await setWave(second.id, theirs.id);
    const missing = await setWave(second.id, '00000000-0000-4000-8000-0000000000ff');
    expect(hidden.statusCode).toBe(400);
    expect(hidden.json()).toEqual(missing.json());
    expect((await wave(second.id)).follows?.id).toBe(first.id);

    // Unset, then set again; each change audited.
    expect(expectJson<WaveSetting>(await setWave(second.id, null), 200).follows).toBeNull();
    expectJson(await setWave(second.id, first.id), 200);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'details'])
      .where('target_id', '=', second.id)
      .where('action', '=', 'experiment.wave.set')
      .execute();
    expect(audit).toHaveLength(3);
  });

  it('admits at the wave-2 landing only a Prolific id that finished wave 1; the setting is then fixed', async () => {
    const first = await createExperiment(t, admin);
    const second = await createExperiment(t, admin);
    expectJson(await setWave(second.id, first.id), 200);
    await inWave1(first.id, 'PIDFINISHED1', 'complete');
    await inWave1(first.id, 'PIDDROPPEDOUT', null);

    for (const pid of ['PIDDROPPEDOUT', 'PIDNEVERTHERE']) {
      const { res, user } = await join(second.id, pid);
      expect([res.statusCode, res.json()]).toEqual([
        403,
        { error: NOT_IN_EARLIER_WAVE_TEXT, code: 'NOT_IN_EARLIER_WAVE' },
      ]);
      // Nothing written: no assignment in wave 2.
      const rows = await t.database.db.selectFrom('assignments').select('id').where('user_id', '=', user.id).execute();
      expect(rows).toEqual([]);
    }
    const { res } = await join(second.id, 'PIDFINISHED1');
    expect(res.statusCode).toBe(201);
    expect((await wave(second.id)).locked).toBe(true);
    const locked = await setWave(second.id, null);
    expect([locked.statusCode, locked.json().code]).toEqual([409, 'WAVE_LOCKED']);
    // Wave 1 itself admits anyone, as before.
    expect((await join(first.id, 'PIDNEWCOMER')).res.statusCode).toBe(201);
  });

  it('makes one Prolific participant group of the chosen completers, then adds to it; once under a double click', async () => {
    const first = await createExperiment(t, admin);
    await inWave1(first.id, 'PIDAAA1', 'complete');
    await inWave1(first.id, 'PIDBBB2', 'exitnoqualms');
    await inWave1(first.id, 'PIDCCC3', null);
    const url = `/api/experiments/${first.id}/prolific/participant-group`;
    const body = { name: 'Wave 1 completers', workspace_id: 'WS1234', pathways: ['complete'] };

    const noToken = await send(t, admin, 'POST', url, body);
    expect([noToken.statusCode, noToken.json().code]).toEqual([409, 'PROLIFIC_NOT_CONFIGURED']);
    expectJson(await send(t, admin, 'PUT', '/api/admin/prolific', { apiToken: fake.token }), 200);
    const none = await send(t, admin, 'POST', url, { ...body, pathways: ['exitceiling'] });
    expect([none.statusCode, none.json().error]).toEqual([400, 'No participant has finished on those pathways yet.']);
    const bad = await send(t, admin, 'POST', url, { ...body, workspace_id: 'WS 1; drop' });
    expect(bad.statusCode).toBe(400);

    // A double click: one group, made with the completers of the chosen pathway only.
    const [a, b] = await Promise.all([send(t, admin, 'POST', url, body), send(t, admin, 'POST', url, body)]);
    // The second either finds the group being made (409, try again) or, made already, adds to it (200).
    expect([a.statusCode, b.statusCode]).toContain(200);
    for (const r of [a, b]) expect([200, 409]).toContain(r.statusCode);
    expect(fake.participantGroups).toHaveLength(1);
    expect([...(fake.participantGroups[0]?.participants ?? [])]).toEqual(['PIDAAA1']);
    const made = [a, b].find((r) => r.statusCode === 200)?.json() as ParticipantGroupResult;
    expect(made.group).toMatchObject({ name: 'Wave 1 completers', workspaceId: 'WS1234', participants: 1 });
    expect(made.group.groupId).toBe(fake.participantGroups[0]?.id);

    // Later, a second pathway too: added to the same group, never a second one.
    const more = expectJson<ParticipantGroupResult>(
      await send(t, admin, 'POST', url, { ...body, pathways: ['complete', 'exitnoqualms'] }),
      200,
    );
    expect(more).toMatchObject({ added: 1, group: { participants: 2 } });
    expect(fake.participantGroups).toHaveLength(1);
    expect([...(fake.participantGroups[0]?.participants ?? [])].sort()).toEqual(['PIDAAA1', 'PIDBBB2']);
    const read = expectJson<{ group: { groupId: string } }>(await send(t, admin, 'GET', url), 200);
    expect(read.group.groupId).toBe(made.group.groupId);
  });

  it('lets the making be tried again after Prolific failed, with nothing left half made', async () => {
    const first = await createExperiment(t, admin);
    await inWave1(first.id, 'PIDDDD4', 'complete');
    expectJson(await send(t, admin, 'PUT', '/api/admin/prolific', { apiToken: fake.token }), 200);
    const url = `/api/experiments/${first.id}/prolific/participant-group`;
    const body = { name: 'Wave 1', workspace_id: 'WS1234', pathways: ['complete'] };
    fake.failures.push({ status: 503, path: '/api/v1/participant-groups/' });
    const failed = await send(t, admin, 'POST', url, body);
    expect([failed.statusCode, failed.json().code]).toEqual([502, 'PROLIFIC_UNAVAILABLE']);
    expect(expectJson<{ group: unknown }>(await send(t, admin, 'GET', url), 200).group).toBeNull();
    expectJson(await send(t, admin, 'POST', url, body), 200);
    expect(fake.participantGroups).toHaveLength(1);
  });

  it("joins the waves by Prolific id in both waves' data packages, and leaves waves.csv out of others", async () => {
    const first = await createExperiment(t, admin);
    const second = await createExperiment(t, admin);
    const alone = await createExperiment(t, admin);
    expectJson(await setWave(second.id, first.id), 200);
    const one = await inWave1(first.id, 'PIDWAVE1', 'complete');
    await inWave1(first.id, 'PIDONLYWAVE1', 'complete');
    const { res } = await join(second.id, 'PIDWAVE1');
    const twoId = (res.json() as { id: string }).id;

    const files = async (experimentId: string) => {
      const zip = await send(t, admin, 'GET', `/api/experiments/${experimentId}/export-package`);
      expect(zip.statusCode).toBe(200);
      const entries = unzipSync(new Uint8Array(zip.rawPayload));
      return Object.fromEntries(Object.entries(entries).map(([name, bytes]) => [name, strFromU8(bytes)]));
    };
    const header =
      'prolific_pid,wave,experiment_id,this_experiment,user_id,assignment_id,condition,completion_pathway,completed_at';
    const secondFiles = await files(second.id);
    expect(secondFiles['waves.csv']?.trim().split(/\r?\n/)).toEqual([
      header,
      `PIDWAVE1,1,${first.id},FALSE,${one.user.id},${one.assignment.id},mmr,complete,2026-11-20T10:00:00.000Z`,
      expect.stringMatching(new RegExp(`^PIDWAVE1,2,${second.id},TRUE,[^,]+,${twoId},,,$`)),
    ]);
    expect(secondFiles['codebook.csv']).toContain('waves.csv,prolific_pid');
    expect(
      JSON.parse(secondFiles['datapackage.json'] ?? '{}').resources.map((r: { path: string }) => r.path),
    ).toContain('waves.csv');
    const firstRows = (await files(first.id))['waves.csv']?.trim().split(/\r?\n/) ?? [];
    expect(firstRows.map((r) => r.split(',').slice(0, 4).join(','))).toEqual([
      header.split(',').slice(0, 4).join(','),
      `PIDONLYWAVE1,1,${first.id},TRUE`,
      `PIDWAVE1,1,${first.id},TRUE`,
      `PIDWAVE1,2,${second.id},FALSE`,
    ]);
    expect(Object.keys(await files(alone.id))).not.toContain('waves.csv');
  });
});

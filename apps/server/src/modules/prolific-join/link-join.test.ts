import { describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, useTestApp, type TestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { createExperiment, send } from '../participants/journey.fixtures.js';

// Joining by Prolific's study link alone (docs/decisions/0086-prolific-link-join.md), on both databases: off by
// default, a first join signs in a login made for the PID, the same SESSION_ID resumes on any device, a forged
// one is refused, a PID takes part once per experiment, two first joins at once make one participant.

const STUDY = '60aca280709ee40ec37d4885';

interface JoinReply {
  token: string;
  user: { id: string; email: string };
  experiment_id: string;
  prolific_pid: string;
  resumed: boolean;
  flow: boolean;
}

describe.each(TEST_DIALECTS)('joining by the Prolific link on %s', (dialect) => {
  const app = useTestApp(dialect);
  let admins: TestUser | undefined;

  async function admin(t: TestApp): Promise<TestUser> {
    admins ??= await createAndLogin(t, { isAdmin: true });
    return admins;
  }

  async function experimentWithLinkJoin(enabled = true): Promise<string> {
    const t = app();
    const a = await admin(t);
    const { id } = await createExperiment(t, a);
    const setting = expectJson(await send(t, a, 'PUT', `/api/experiments/${id}/prolific-link-join`, { enabled }), 200);
    expect(setting).toEqual({ experimentId: id, enabled });
    return id;
  }

  const join = (experimentId: string, prolificPid: string, sessionId: string, studyId = STUDY) =>
    send(app(), undefined, 'POST', '/api/prolific/join', { experimentId, prolificPid, studyId, sessionId });

  const me = (token: string, userId: string, experimentId: string) =>
    app().app.inject({
      method: 'GET',
      url: `/api/participants/${userId}/${experimentId}`,
      headers: { authorization: `Bearer ${token}` },
    });

  it('is off by default: the route refuses and the setting reads false', async () => {
    const t = app();
    const { id } = await createExperiment(t, await admin(t));
    expect(expectJson(await send(t, await admin(t), 'GET', `/api/experiments/${id}/prolific-link-join`), 200)).toEqual({
      experimentId: id,
      enabled: false,
    });
    const refused = expectJson<{ code: string }>(await join(id, 'PIDOFF1', 'SESSOFF1'), 403);
    expect(refused.code).toBe('LINK_JOIN_OFF');
    const off = await experimentWithLinkJoin(false);
    expect(expectJson<{ code: string }>(await join(off, 'PIDOFF2', 'SESSOFF2'), 403).code).toBe('LINK_JOIN_OFF');
    const users = await t.database.db.selectFrom('users').select('id').where('email', 'like', 'prolific-%').execute();
    expect(users).toEqual([]);
  });

  it('a first join makes a login for the PID with its ids recorded and signs it in', async () => {
    const t = app();
    const id = await experimentWithLinkJoin();
    const first = expectJson<JoinReply>(await join(id, 'PIDFIRST1', 'SESSFIRST1'), 200);
    expect(first).toMatchObject({ experiment_id: id, prolific_pid: 'PIDFIRST1', resumed: false, flow: false });
    expect(first.user.email).toMatch(/@prolific-link\.invalid$/);
    const assignment = expectJson<{ prolific_pid: string; session_id: string; study_id: string }>(
      await me(first.token, first.user.id, id),
      200,
    );
    expect(assignment).toMatchObject({ prolific_pid: 'PIDFIRST1', session_id: 'SESSFIRST1', study_id: STUDY });
    // The login made for the PID has no password anyone knows.
    const login = await send(t, undefined, 'POST', '/api/auth/login', { email: first.user.email, password: 'x' });
    expect(login.statusCode).toBe(401);
  });

  it('the same PID with the same SESSION_ID resumes (another device); a forged SESSION_ID is refused', async () => {
    const id = await experimentWithLinkJoin();
    const first = expectJson<JoinReply>(await join(id, 'PIDRESUME1', 'SESSRESUME1'), 200);
    const again = expectJson<JoinReply>(await join(id, 'PIDRESUME1', 'SESSRESUME1'), 200);
    expect(again).toMatchObject({ resumed: true, user: first.user });
    expect(again.token).not.toBe(first.token);
    expectJson(await me(again.token, again.user.id, id), 200);

    const forged = expectJson<{ code: string; error: string }>(await join(id, 'PIDRESUME1', 'SESSFORGED1'), 403);
    expect(forged.code).toBe('SESSION_MISMATCH');
    expect(forged.error).toMatch(/another Prolific session/);
  });

  it('a PID takes part once per experiment; another PID is a participant of its own', async () => {
    const t = app();
    const id = await experimentWithLinkJoin();
    const a = expectJson<JoinReply>(await join(id, 'PIDONCEA', 'SESSONCEA'), 200);
    const b = expectJson<JoinReply>(await join(id, 'PIDONCEB', 'SESSONCEB'), 200);
    expect(b.user.id).not.toBe(a.user.id);
    // B's SESSION_ID does not open A's participation.
    expect(expectJson<{ code: string }>(await join(id, 'PIDONCEA', 'SESSONCEB'), 403).code).toBe('SESSION_MISMATCH');
    const rows = await t.database.db
      .selectFrom('assignments')
      .select('user_id')
      .where('experiment_id', '=', id)
      .where('prolific_pid', '=', 'PIDONCEA')
      .execute();
    expect(rows).toEqual([{ user_id: a.user.id }]);
  });

  it('a PID that joined with a study login cannot be taken over by the link', async () => {
    const t = app();
    const id = await experimentWithLinkJoin();
    const participant = await createAndLogin(t, { isAdmin: false });
    expectJson(
      await send(t, participant, 'POST', '/api/participants', {
        user_id: participant.id,
        experiment_id: id,
        prolific_pid: 'PIDLOGIN1',
      }),
      201,
    );
    expect(expectJson<{ code: string }>(await join(id, 'PIDLOGIN1', 'SESSLOGIN1'), 403).code).toBe('SESSION_MISMATCH');
  });

  it('two first joins at once make one participant; the same SESSION_ID resumes it, another is refused', async () => {
    const t = app();
    const id = await experimentWithLinkJoin();
    const [one, two] = await Promise.all([join(id, 'PIDRACE1', 'SESSRACE1'), join(id, 'PIDRACE1', 'SESSRACE1')]);
    const replies = [expectJson<JoinReply>(one, 200), expectJson<JoinReply>(two, 200)];
    expect(replies[0]?.user.id).toBe(replies[1]?.user.id);
    const [x, y] = await Promise.all([join(id, 'PIDRACE2', 'SESSRACE2'), join(id, 'PIDRACE2', 'SESSRACE3')]);
    expect([x.statusCode, y.statusCode].sort()).toEqual([200, 403]);
    const logins = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('metadata', 'like', `%${id}%`)
      .where('email', 'like', 'prolific-%')
      .execute();
    expect(logins).toHaveLength(2);
  });

  it('refuses a STUDY_ID other than the linked study, an unknown experiment and hostile ids (4xx, nothing written)', async () => {
    const t = app();
    const id = await experimentWithLinkJoin();
    expectJson(await send(t, await admin(t), 'PUT', `/api/experiments/${id}/prolific-study`, { studyId: STUDY }), 200);
    expect(expectJson<{ code: string }>(await join(id, 'PIDSTUDY1', 'SESSSTUDY1', 'OTHERSTUDY1'), 403).code).toBe(
      'STUDY_MISMATCH',
    );
    expect((await join('00000000-0000-4000-8000-0000000000ff', 'PIDX1', 'SESSX1')).statusCode).toBe(404);
    const hostile = ['PID\u0000NUL', "PID' OR '1'='1", '<script>alert(1)</script>', 'P'.repeat(65), '', 'PID\u202E'];
    for (const text of hostile) {
      for (const field of ['prolificPid', 'studyId', 'sessionId'] as const) {
        const body = { experimentId: id, prolificPid: 'PIDH1', studyId: STUDY, sessionId: 'SESSH1', [field]: text };
        const res = await send(t, undefined, 'POST', '/api/prolific/join', body);
        expect(res.statusCode, `${field}=${JSON.stringify(text)}`).toBe(400);
        expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      }
    }
    const extra = await send(t, undefined, 'POST', '/api/prolific/join', {
      experimentId: id,
      prolificPid: 'PIDH1',
      studyId: STUDY,
      sessionId: 'SESSH1',
      isAdmin: true,
    });
    expect(extra.statusCode).toBe(400);
    const written = await t.database.db
      .selectFrom('assignments')
      .select('id')
      .where('experiment_id', '=', id)
      .execute();
    expect(written).toEqual([]);
  });

  it('a closed experiment takes no one new by link, and leaves no login behind', async () => {
    const t = app();
    const id = await experimentWithLinkJoin();
    const a = await admin(t);
    const before = expectJson<JoinReply>(await join(id, 'PIDCLOSED1', 'SESSCLOSED1'), 200);
    expectJson(await send(t, a, 'PUT', `/api/experiments/${id}/state`, { state: 'closed' }), 200);
    const refused = await join(id, 'PIDCLOSED2', 'SESSCLOSED2');
    expect(refused.statusCode).toBe(403);
    // One who joined before goes on.
    expect(expectJson<JoinReply>(await join(id, 'PIDCLOSED1', 'SESSCLOSED1'), 200).user.id).toBe(before.user.id);
    const left = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('metadata', 'like', `%${id}%`)
      .where('email', 'like', 'prolific-%')
      .execute();
    expect(left).toHaveLength(1);
  });

  it('only admins set the setting, and it is audited', async () => {
    const t = app();
    const id = await experimentWithLinkJoin();
    const entries = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'target_id'])
      .where('action', '=', 'prolific.link_join.set')
      .where('target_id', '=', id)
      .execute();
    expect(entries).toHaveLength(1);
  });
});

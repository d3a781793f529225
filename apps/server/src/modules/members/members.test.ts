import type { Experiment, ExperimentMembers } from '@studychat/contracts';
import { describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, newSession, useTestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { insertExperimentRow, insertMemberRow, insertUserRow } from '../../../test/factories.js';
import { send as call } from '../participants/journey.fixtures.js';

// The people on an experiment (issue 34, docs/decisions/0087): the creator owns it and it is members-only; a
// staff account that is not a member hears 404 everywhere and does not see it listed; members act by their
// role (an analyst as a viewer at most); the owner manages members, never leaving none; each change audited.
// Experiments from before members (no owner) stay lab-wide.

const NO_SUCH_ID = '00000000-0000-4000-8000-0000000000ff';

describe.each(TEST_DIALECTS)('experiment members on %s', (dialect) => {
  const t = useTestApp(dialect);
  const admin = () => createAndLogin(t(), { isAdmin: true });
  const analyst = async () => {
    const row = await insertUserRow(t().database.db, { role: 'analyst' });
    return newSession(t(), { id: String(row.id), email: row.email }, 'analyst');
  };
  const create = async (owner: TestUser) =>
    expectJson<Experiment>(await call(t(), owner, 'POST', '/api/experiments', { name: 'Owned study' }), 201);
  const listed = async (user: TestUser) =>
    expectJson<Experiment[]>(await call(t(), user, 'GET', '/api/experiments'), 200).map((e) => e.id);
  const members = (user: TestUser, id: string) => call(t(), user, 'GET', `/api/experiments/${id}/members`);
  const add = (user: TestUser, id: string, email: string, role: string) =>
    call(t(), user, 'POST', `/api/experiments/${id}/members`, { email, role });

  it('makes the creator the owner: other staff neither see the experiment nor learn that it exists', async () => {
    const owner = await admin();
    const other = await admin();
    const reader = await analyst();
    const { id } = await create(owner);

    const mine = expectJson<ExperimentMembers>(await members(owner, id), 200);
    expect(mine).toMatchObject({ lab_wide: false, your_role: 'owner' });
    expect(mine.members).toMatchObject([{ user_id: owner.id, role: 'owner', account_role: 'admin' }]);
    expect(await listed(owner)).toContain(id);

    for (const outsider of [other, reader]) {
      expect(await listed(outsider)).not.toContain(id);
      for (const url of [
        `/api/experiments/${id}`,
        `/api/experiments/${id}/monitor`,
        `/api/experiments/${id}/members`,
      ]) {
        const hidden = await call(t(), outsider, 'GET', url);
        const missing = await call(t(), outsider, 'GET', url.replace(id, NO_SUCH_ID));
        // Word for word what an experiment that does not exist answers.
        expect([hidden.statusCode, hidden.json()]).toEqual([404, { error: 'Experiment not found', code: 'NOT_FOUND' }]);
        expect(missing.statusCode).toBe(404);
        expect(missing.json()).toEqual(hidden.json());
      }
    }
    // A non-member admin changes nothing either, and still hears 404.
    expect((await call(t(), other, 'PUT', `/api/experiments/${id}`, { name: 'Taken' })).statusCode).toBe(404);
    expect((await call(t(), other, 'PUT', `/api/experiments/${id}/state`, { state: 'paused' })).statusCode).toBe(404);
    expect((await call(t(), other, 'DELETE', `/api/experiments/${id}`)).statusCode).toBe(404);
    expect((await add(other, id, other.email, 'owner')).statusCode).toBe(404);
    const after = expectJson<Experiment>(await call(t(), owner, 'GET', `/api/experiments/${id}`), 200);
    expect(after.name).toBe('Owned study');
  });

  it('lets members act by their role, an analyst as a viewer at most', async () => {
    const owner = await admin();
    const editor = await admin();
    const viewer = await admin();
    const reader = await analyst();
    const { id } = await create(owner);
    expectJson(await add(owner, id, editor.email, 'editor'), 201);
    expectJson(await add(owner, id, viewer.email, 'viewer'), 201);
    expectJson(await add(owner, id, reader.email, 'viewer'), 201);

    for (const user of [editor, viewer, reader]) {
      expect(await listed(user)).toContain(id);
      expect((await call(t(), user, 'GET', `/api/experiments/${id}/quotas`)).statusCode).toBe(200);
    }
    expect((await call(t(), editor, 'PUT', `/api/experiments/${id}`, { name: 'Edited' })).statusCode).toBe(200);
    expect((await call(t(), viewer, 'PUT', `/api/experiments/${id}`, { name: 'No' })).json()).toMatchObject({
      code: 'FORBIDDEN',
    });
    // Only the owner changes the state, deletes, or manages people.
    expect((await call(t(), editor, 'PUT', `/api/experiments/${id}/state`, { state: 'paused' })).statusCode).toBe(403);
    expect((await add(editor, id, reader.email, 'viewer')).statusCode).toBe(403);
    expect((await call(t(), owner, 'PUT', `/api/experiments/${id}/state`, { state: 'paused' })).statusCode).toBe(200);
    expect(expectJson<ExperimentMembers>(await members(viewer, id), 200).your_role).toBe('viewer');

    // An analyst is never more than a viewer: refused as an editor, and capped if stored as one.
    expect((await add(owner, id, (await analyst()).email, 'editor')).json()).toMatchObject({ code: 'BAD_REQUEST' });
    const promoted = await analyst();
    await insertMemberRow(t().database.db, id, promoted.id, 'editor');
    expect(expectJson<ExperimentMembers>(await members(promoted, id), 200).your_role).toBe('viewer');
  });

  it('changes and removes members, never the last owner, each change audited', async () => {
    const owner = await admin();
    const second = await admin();
    const { id } = await create(owner);
    const url = `/api/experiments/${id}/members`;

    expect((await add(owner, id, 'nobody@lab.test', 'viewer')).statusCode).toBe(404);
    expect((await add(owner, id, owner.email, 'viewer')).json()).toMatchObject({ code: 'CONFLICT' });
    expect((await add(owner, id, second.email, 'boss')).json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await call(t(), owner, 'PUT', `${url}/not-an-id`, { role: 'viewer' })).statusCode).toBe(400);
    // The only owner can neither leave nor step down.
    expect((await call(t(), owner, 'DELETE', `${url}/${owner.id}`)).json()).toMatchObject({ code: 'CONFLICT' });
    expect((await call(t(), owner, 'PUT', `${url}/${owner.id}`, { role: 'editor' })).statusCode).toBe(409);
    expect((await call(t(), owner, 'PUT', `${url}/${second.id}`, { role: 'editor' })).statusCode).toBe(404);

    const added = expectJson<ExperimentMembers>(await add(owner, id, second.email.toUpperCase(), 'viewer'), 201);
    expect(added.members.map((m) => [m.user_id, m.role])).toEqual([
      [owner.id, 'owner'],
      [second.id, 'viewer'],
    ]);
    expectJson(await call(t(), owner, 'PUT', `${url}/${second.id}`, { role: 'owner' }), 200);
    // Now the first owner may leave: they then hear 404 like anyone else who is not on it.
    expectJson(await call(t(), owner, 'DELETE', `${url}/${owner.id}`), 200);
    expect((await call(t(), owner, 'GET', `/api/experiments/${id}`)).statusCode).toBe(404);
    const left = expectJson<ExperimentMembers>(await members(second, id), 200);
    expect(left.members).toMatchObject([{ user_id: second.id, role: 'owner' }]);

    const audit = await t()
      .database.db.selectFrom('audit_log')
      .select(['action', 'actor_id', 'details'])
      .where('target_id', '=', id)
      .where('action', 'like', 'experiment.member.%')
      .orderBy('action')
      .execute();
    expect(audit.map((a) => [a.action, a.actor_id, JSON.parse(String(a.details))])).toEqual([
      ['experiment.member.add', owner.id, { user_id: second.id, role: 'viewer' }],
      ['experiment.member.remove', owner.id, { user_id: owner.id }],
      ['experiment.member.role', owner.id, { user_id: second.id, role: 'owner' }],
    ]);
  });

  it('keeps an experiment without an owner lab-wide, and sharing it makes the sharer its owner', async () => {
    const first = await admin();
    const other = await admin();
    const reader = await analyst();
    const id = String((await insertExperimentRow(t().database.db)).id);
    for (const user of [first, other, reader]) expect(await listed(user)).toContain(id);
    expect(expectJson<ExperimentMembers>(await members(other, id), 200)).toEqual({
      lab_wide: true,
      your_role: 'owner',
      members: [],
    });
    expect(expectJson<ExperimentMembers>(await members(reader, id), 200).your_role).toBe('viewer');
    expect((await call(t(), reader, 'PUT', `/api/experiments/${id}`, { name: 'No' })).statusCode).toBe(403);

    const shared = expectJson<ExperimentMembers>(await add(first, id, reader.email, 'viewer'), 201);
    expect(shared.lab_wide).toBe(false);
    expect(shared.members.map((m) => [m.user_id, m.role]).sort()).toEqual(
      [
        [first.id, 'owner'],
        [reader.id, 'viewer'],
      ].sort(),
    );
    expect(await listed(other)).not.toContain(id);
    expect((await call(t(), other, 'GET', `/api/experiments/${id}`)).statusCode).toBe(404);
    expect(await listed(reader)).toContain(id);
    expect((await members(first, NO_SUCH_ID)).statusCode).toBe(404);
  });

  it('lets a participant reach their own routes of a members-only experiment as before', async () => {
    const owner = await admin();
    const { id } = await create(owner);
    const participant = await createAndLogin(t());
    // The participant is no staff: the member check leaves them to the route's own rules (not joined: 404 there).
    const res = await call(t(), participant, 'GET', `/api/participants/journey/${id}`);
    const missing = await call(t(), participant, 'GET', `/api/participants/journey/${NO_SUCH_ID}`);
    expect(res.statusCode).toBe(missing.statusCode);
    expect((await call(t(), participant, 'GET', `/api/experiments/${id}/members`)).statusCode).toBe(403);
  });
});

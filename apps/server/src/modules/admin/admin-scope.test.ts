import type { AdminThread, AdminUser, Assignment, AuditPage, Experiment, SurveyResponse } from '@studychat/contracts';
import { describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, newSession, useTestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import {
  buildSurvey,
  insertExperimentRow,
  insertMany,
  insertUserRow,
  seedParticipant,
} from '../../../test/factories.js';
import { send as call } from '../participants/journey.fixtures.js';

// The admin area's participant pages are scoped to the experiments the caller may see (issue 34,
// docs/decisions/0087): they reach participants without naming an experiment in the path, so the route check
// cannot do it. A participant tied only to members-only experiments the caller is not on is unknown to the
// caller (404 word for word as a missing one, absent from the list); a participant also in a visible experiment
// shows only that experiment's rows; the audit log leaves out the entries about hidden experiments and people.

const NO_SUCH_USER = '00000000-0000-4000-8000-0000000000fe';

describe.each(TEST_DIALECTS)('admin participant pages scoped to members on %s', (dialect) => {
  const t = useTestApp(dialect);
  const analyst = async () => {
    const row = await insertUserRow(t().database.db, { role: 'analyst' });
    return newSession(t(), { id: String(row.id), email: row.email }, 'analyst');
  };
  const create = async (owner: TestUser, name: string) =>
    expectJson<Experiment>(await call(t(), owner, 'POST', '/api/experiments', { name }), 201).id;
  const userIds = async (user: TestUser) =>
    expectJson<AdminUser[]>(await call(t(), user, 'GET', '/api/admin/users'), 200).map((u) => u.id);
  const pages = (id: string, threadId: string) => [
    `/api/admin/users/${id}`,
    `/api/admin/users/${id}/threads`,
    `/api/admin/users/${id}/threads/${threadId}/messages`,
    `/api/admin/users/${id}/assignments`,
    `/api/admin/users/${id}/survey-responses`,
  ];

  async function world() {
    const db = t().database.db;
    const owner = await createAndLogin(t(), { isAdmin: true });
    const other = await createAndLogin(t(), { isAdmin: true });
    const reader = await analyst();
    const privateId = await create(owner, 'Private study');
    const othersId = await create(other, 'Other study');
    const labWide = String((await insertExperimentRow(db)).id);
    const chat = [{ role: 'assistant' as const, content: 'Hello from the private study' }];
    const insider = await seedParticipant(db, privateId, {
      pre: { age: '30', sex: 'F', political_leaning: '3' },
      chat,
    });
    const outsider = await seedParticipant(db, othersId, { chat });
    // In the private study and, through a survey answer, in a lab-wide one.
    const both = await seedParticipant(db, privateId, { baseline: 5, chat });
    const bothId = String(both.user.id);
    await insertMany(db, 'survey_responses', [
      buildSurvey({ userId: bothId, experimentId: labWide }, 'baseline', { vaccination_intention: '2' }),
    ]);
    const untied = await insertUserRow(db, { role: 'participant' });
    return { owner, other, reader, privateId, othersId, labWide, insider, outsider, both, bothId, untied };
  }

  it('hides a participant of a members-only experiment from staff who are not on it, as if missing', async () => {
    const w = await world();
    const insiderId = String(w.insider.user.id);
    expect(await userIds(w.owner)).toEqual(expect.arrayContaining([insiderId, w.bothId]));
    for (const url of pages(insiderId, w.insider.threadId ?? '')) {
      expect((await call(t(), w.owner, 'GET', url)).statusCode).toBe(200);
    }

    for (const stranger of [w.other, w.reader]) {
      const listed = await userIds(stranger);
      expect(listed).not.toContain(insiderId);
      // Visible: a participant of the stranger's own experiment (for the analyst: not its own, hidden too), one
      // also tied to a lab-wide experiment, one tied to none, and the staff accounts.
      expect(listed).toEqual(expect.arrayContaining([w.bothId, String(w.untied.id), w.owner.id, w.other.id]));
      for (const url of pages(insiderId, w.insider.threadId ?? '')) {
        const hidden = await call(t(), stranger, 'GET', url);
        const missing = await call(t(), stranger, 'GET', url.replace(insiderId, NO_SUCH_USER));
        expect(hidden.statusCode).toBe(404);
        expect(hidden.json()).toEqual(missing.json());
      }
    }
    expect(await userIds(w.other)).toContain(String(w.outsider.user.id));
    expect(await userIds(w.reader)).not.toContain(String(w.outsider.user.id));
  });

  it("shows a participant in a visible and a hidden experiment with the visible one's rows only", async () => {
    const w = await world();
    const base = `/api/admin/users/${w.bothId}`;
    const ownerView = expectJson<SurveyResponse[]>(await call(t(), w.owner, 'GET', `${base}/survey-responses`), 200);
    expect(ownerView.map((r) => r.experiment_id).sort()).toEqual([w.labWide, w.privateId].sort());

    const surveys = expectJson<SurveyResponse[]>(await call(t(), w.other, 'GET', `${base}/survey-responses`), 200);
    expect(surveys.map((r) => r.experiment_id)).toEqual([w.labWide]);
    expect(expectJson<Assignment[]>(await call(t(), w.other, 'GET', `${base}/assignments`), 200)).toEqual([]);
    expect(expectJson<AdminThread[]>(await call(t(), w.other, 'GET', `${base}/threads`), 200)).toEqual([]);
    const messages = await call(t(), w.other, 'GET', `${base}/threads/${w.both.threadId}/messages`);
    expect([messages.statusCode, messages.json()]).toEqual([404, { error: 'Thread not found', code: 'NOT_FOUND' }]);
  });

  it('shows them once the experiment is shared, and again hides them when the member is removed', async () => {
    const w = await world();
    const insiderId = String(w.insider.user.id);
    expectJson(
      await call(t(), w.owner, 'POST', `/api/experiments/${w.privateId}/members`, {
        email: w.other.email,
        role: 'viewer',
      }),
      201,
    );
    expect(await userIds(w.other)).toContain(insiderId);
    const threads = expectJson<AdminThread[]>(
      await call(t(), w.other, 'GET', `/api/admin/users/${insiderId}/threads`),
      200,
    );
    expect(threads.map((th) => th.experiment_id)).toEqual([w.privateId]);

    expect(
      (await call(t(), w.owner, 'DELETE', `/api/experiments/${w.privateId}/members/${w.other.id}`)).statusCode,
    ).toBe(200);
    expect((await call(t(), w.other, 'GET', `/api/admin/users/${insiderId}`)).statusCode).toBe(404);
  });

  it("leaves a hidden experiment's entries and its participants' out of the audit log", async () => {
    const w = await world();
    const insiderId = String(w.insider.user.id);
    expectJson(await call(t(), w.owner, 'PUT', `/api/experiments/${w.privateId}`, { name: 'Renamed' }), 200);
    expectJson(await call(t(), w.owner, 'GET', `/api/admin/users/${insiderId}`), 200);
    expectJson(await call(t(), w.other, 'PUT', `/api/experiments/${w.othersId}`, { name: 'Mine renamed' }), 200);

    const targets = async (user: TestUser) =>
      expectJson<AuditPage>(await call(t(), user, 'GET', '/api/admin/audit-log?limit=500'), 200).entries.map(
        (e) => `${e.action} ${e.target_id}`,
      );
    const owners = await targets(w.owner);
    expect(owners).toEqual(
      expect.arrayContaining([`experiment.update ${w.privateId}`, `participant.view ${insiderId}`]),
    );
    expect(owners).not.toContain(`experiment.update ${w.othersId}`);
    const others = await targets(w.other);
    expect(others).toContain(`experiment.update ${w.othersId}`);
    expect(others.filter((e) => e.includes(w.privateId) || e.includes(insiderId))).toEqual([]);
  });
});

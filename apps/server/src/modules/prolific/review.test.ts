import { useFakeProlificApp } from '../../../test/fake-prolific-app.js';
import { randomUUID } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectJson, type TestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { buildAssignment, insertExperimentRow, insertUserRow } from '../../../test/factories.js';
import type { FakeProlific } from '../../../test/fakes/prolific-fake.js';

// Approving on Prolific by pathway, in bulk, against the fake (both databases): only the submissions awaiting
// review of that pathway's participants, each once under a double click or two requests at once, released
// again when Prolific fails (5xx) so a retry approves them, refused without a token, audited.

const STUDY = '60aca280709ee40ec37d4885';

describe.each(TEST_DIALECTS)('approving by pathway on %s', (dialect) => {
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
    fake.submissions.length = 0;
  });

  const send = (method: 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: admin.headers, ...(payload ? { payload } : {}) });
  const approve = (experimentId: string, pathway: string) =>
    send('POST', `/api/experiments/${experimentId}/prolific/approve`, { pathway });
  const connect = async () => expectJson(await send('PUT', '/api/admin/prolific', { apiToken: fake.token }), 200);
  const bulkCalls = () => fake.requests.filter((r) => r.path === '/api/v1/submissions/bulk-approve/');

  /** One participant on a pathway with a Prolific submission in the given status (webhook row, or only SESSION_ID). */
  async function participant(
    experimentId: string,
    pathway: string | null,
    status: string,
    where: 'webhook' | 'session' = 'webhook',
  ): Promise<{ assignmentId: string; submissionId: string }> {
    const db = t.database.db;
    const user = await insertUserRow(db);
    const submissionId = `SUB${randomUUID().replace(/-/g, '').slice(0, 20)}`;
    const row = buildAssignment(
      { userId: String(user.id), experimentId },
      {
        prolific_pid: `PID${randomUUID().slice(0, 8)}`,
        completion_pathway: pathway,
        session_id: where === 'session' ? submissionId : null,
      },
    );
    await db.insertInto('assignments').values(row).execute();
    const at = new Date().toISOString();
    await db
      .insertInto('prolific_submissions')
      .values({
        assignment_id: String(row.id),
        submission_id: where === 'webhook' ? submissionId : null,
        status,
        status_at: at,
        updated_at: at,
      })
      .execute();
    fake.submissions.push({
      id: submissionId,
      participant_id: String(row.prolific_pid),
      study_id: STUDY,
      status: status === 'awaiting_review' ? 'AWAITING REVIEW' : status.toUpperCase(),
    });
    return { assignmentId: String(row.id), submissionId };
  }

  const statusOf = async (assignmentId: string) =>
    (
      await t.database.db
        .selectFrom('prolific_submissions')
        .select('status')
        .where('assignment_id', '=', assignmentId)
        .executeTakeFirstOrThrow()
    ).status;

  it('approves only the pathway’s submissions awaiting review, once, in one bulk call, audited', async () => {
    await connect();
    const experiment = await insertExperimentRow(t.database.db);
    const id = String(experiment.id);
    const a = await participant(id, 'complete', 'awaiting_review');
    const b = await participant(id, 'complete', 'awaiting_review', 'session');
    const active = await participant(id, 'complete', 'active');
    const other = await participant(id, 'exitceiling', 'awaiting_review');

    const reply = expectJson<{ approved: number; submissionIds: string[] }>(await approve(id, 'complete'), 200);
    expect(reply).toEqual({ approved: 2, submissionIds: [a.submissionId, b.submissionId].sort() });
    expect(bulkCalls().map((r) => r.body)).toEqual([{ submission_ids: [a.submissionId, b.submissionId].sort() }]);
    expect(await statusOf(a.assignmentId)).toBe('approved');
    expect(await statusOf(b.assignmentId)).toBe('approved');
    expect(await statusOf(active.assignmentId)).toBe('active');
    expect(await statusOf(other.assignmentId)).toBe('awaiting_review');

    // A second click finds nothing left and calls Prolific no more.
    expect(expectJson(await approve(id, 'complete'), 200)).toEqual({ approved: 0, submissionIds: [] });
    expect(bulkCalls()).toHaveLength(1);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'prolific.submissions.approve')
      .where('target_id', '=', id)
      .execute();
    expect(audit.map((r) => JSON.parse(String(r.details)) as unknown)).toEqual([
      { pathway: 'complete', approved: 2 },
      { pathway: 'complete', approved: 0 },
    ]);
  });

  it('two approvals at once approve each submission once', async () => {
    await connect();
    const id = String((await insertExperimentRow(t.database.db)).id);
    const subs = [
      await participant(id, 'complete', 'awaiting_review'),
      await participant(id, 'complete', 'awaiting_review'),
      await participant(id, 'complete', 'awaiting_review'),
    ];
    const replies = await Promise.all([approve(id, 'complete'), approve(id, 'complete')]);
    const approved = replies.map((r) => expectJson<{ approved: number }>(r, 200).approved);
    expect(approved.reduce((x, y) => x + y, 0)).toBe(3);
    const sent = bulkCalls().flatMap((r) => (r.body as { submission_ids: string[] }).submission_ids);
    expect(sent.sort()).toEqual(subs.map((s) => s.submissionId).sort());
  });

  it('after a 5xx from Prolific the submissions await review again, and a retry approves them', async () => {
    await connect();
    const id = String((await insertExperimentRow(t.database.db)).id);
    const a = await participant(id, 'complete', 'awaiting_review');
    fake.failures.push({ status: 503 });
    const failed = await approve(id, 'complete');
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toMatchObject({ code: expect.any(String), error: expect.any(String) });
    expect(await statusOf(a.assignmentId)).toBe('awaiting_review');
    expect(expectJson(await approve(id, 'complete'), 200)).toEqual({ approved: 1, submissionIds: [a.submissionId] });
    expect(fake.submissions.find((s) => s.id === a.submissionId)?.status).toBe('APPROVED');
  });

  it('refuses without a token (409), for an unknown experiment (404) and a hostile pathway (400)', async () => {
    await connect();
    const id = String((await insertExperimentRow(t.database.db)).id);
    expect((await approve(randomUUID(), 'complete')).statusCode).toBe(404);
    for (const pathway of ['', 'com plete', 'x\u0000', '<script>', 'p'.repeat(65)]) {
      const res = await approve(id, pathway);
      expect(res.statusCode, JSON.stringify(pathway)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    expectJson(await send('DELETE', '/api/admin/prolific'), 200);
    const a = await participant(id, 'complete', 'awaiting_review');
    const refused = expectJson<{ code: string }>(await approve(id, 'complete'), 409);
    expect(refused.code).toBe('PROLIFIC_NOT_CONFIGURED');
    expect(await statusOf(a.assignmentId)).toBe('awaiting_review');
    expect(bulkCalls()).toEqual([]);
  });
});

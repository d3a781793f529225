import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAndLogin, createTestApp, expectJson, type TestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS, dropTestSchemas } from '../../../test/databases.js';
import { startFakeProlific, type FakeProlific } from '../../../test/fakes/prolific-fake.js';
import { payFixtures } from './pay.fixtures.js';

// Rejecting on Prolific against the fake (both databases, docs/decisions/0089): one of Prolific's categories and a
// message of 100+ characters, confirmed; only this experiment's participants whose submission awaits review; each
// rejected once under a double click; put back when Prolific fails; audited.

const MESSAGE =
  'Thank you for taking part. Your submission finished the whole study in under a minute, which is not enough time to read it.';

describe.each(TEST_DIALECTS)('rejecting on %s', (dialect) => {
  let t: TestApp;
  let fake: FakeProlific;
  let admin: TestUser;
  const f = payFixtures(
    () => t,
    () => fake,
    () => admin,
  );

  beforeAll(async () => {
    fake = await startFakeProlific();
    t = await createTestApp(dialect, { config: { prolific: { apiUrl: fake.url, timeoutMs: 2000 } } });
    admin = await createAndLogin(t, { isAdmin: true });
    expectJson(await f.send('PUT', '/api/admin/prolific', { apiToken: fake.token }), 200);
  });
  afterAll(async () => {
    await t.app.close();
    await t.database.close();
    await dropTestSchemas();
    await fake.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    fake.failures.length = 0;
  });

  const reject = (experimentId: string, body: object) =>
    f.send('POST', `/api/experiments/${experimentId}/prolific/reject`, body);
  const transitions = () => fake.requests.filter((r) => r.path.endsWith('/transition/'));
  const statusOf = async (assignmentId: string) =>
    (
      await t.database.db
        .selectFrom('prolific_submissions')
        .select('status')
        .where('assignment_id', '=', assignmentId)
        .executeTakeFirstOrThrow()
    ).status;

  it('rejects the named participants with the category and message, once each; audited', async () => {
    const id = await f.linkedExperiment();
    const a = await f.participant(id);
    const b = await f.participant(id);
    const untouched = await f.participant(id);
    const body = { prolificPids: [a.pid, b.pid], category: 'TOO_QUICKLY', message: MESSAGE, confirm: true };
    expect(expectJson(await reject(id, body), 200)).toEqual({ rejected: [a.pid, b.pid], failed: [] });
    expect(transitions().map((r) => [r.path, r.body])).toEqual(
      [a, b].map((p) => [
        `/api/v1/submissions/${p.submissionId}/transition/`,
        { action: 'REJECT', message: MESSAGE, rejection_category: 'TOO_QUICKLY' },
      ]),
    );
    expect(await statusOf(a.assignmentId)).toBe('rejected');
    expect(await statusOf(b.assignmentId)).toBe('rejected');
    expect(await statusOf(untouched.assignmentId)).toBe('awaiting_review');
    expect(fake.submissions.find((s) => s.id === a.submissionId)?.status).toBe('REJECTED');
    // Again: they are rejected now, so nothing more is sent.
    expect(expectJson<{ code: string }>(await reject(id, body), 409).code).toBe('PROLIFIC_NOT_REVIEWABLE');
    expect(transitions()).toHaveLength(2);
    expect(await f.auditOf('prolific.submissions.reject', id)).toEqual([
      { category: 'TOO_QUICKLY', rejected: [a.pid, b.pid], failed: [] },
    ]);
  });

  it('refuses a short message, an unknown category, no confirmation, and hostile ids (400), sending nothing', async () => {
    const id = await f.linkedExperiment();
    const a = await f.participant(id);
    const base = { prolificPids: [a.pid], category: 'LOW_EFFORT', message: MESSAGE, confirm: true };
    const cases: object[] = [
      { ...base, message: 'x'.repeat(99) },
      { ...base, message: `   ${'x'.repeat(98)}   ` },
      { ...base, message: `${'x'.repeat(100)}\u0000` },
      { ...base, category: 'BORED' },
      { ...base, category: 'low_effort' },
      { ...base, confirm: false },
      { prolificPids: [a.pid], category: 'LOW_EFFORT', message: MESSAGE },
      { ...base, prolificPids: [] },
      { ...base, prolificPids: [a.pid, a.pid] },
      { ...base, prolificPids: ["x' OR 1=1 --"] },
      { ...base, extra: true },
    ];
    for (const body of cases) {
      const res = await reject(id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', error: expect.any(String) });
    }
    expect(fake.requests).toEqual([]);
    expect(await statusOf(a.assignmentId)).toBe('awaiting_review');
    expect(expectJson(await reject(id, { ...base, message: 'y'.repeat(100) }), 200)).toEqual({
      rejected: [a.pid],
      failed: [],
    });
  });

  it('refuses another experiment’s participant (404), one not linked or not awaiting review (409), all or nothing', async () => {
    const id = await f.linkedExperiment();
    const other = await f.linkedExperiment();
    const mine = await f.participant(id);
    const theirs = await f.participant(other);
    const body = (pids: string[]) => ({
      prolificPids: pids,
      category: 'FAILED_CHECK',
      message: MESSAGE,
      confirm: true,
    });
    const notMine = expectJson<{ code: string; issues: { path: string }[] }>(
      await reject(id, body([mine.pid, theirs.pid])),
      404,
    );
    expect(notMine).toMatchObject({ code: 'NOT_FOUND', issues: [{ path: theirs.pid }] });
    expect((await reject(randomUUID(), body([mine.pid]))).statusCode).toBe(404);
    const unlinked = await f.participant(id, { status: null });
    const active = await f.participant(id, { status: 'active' });
    const approved = await f.participant(id, { status: 'approved' });
    const refused = expectJson<{ code: string; issues: { path: string; message: string }[] }>(
      await reject(id, body([mine.pid, unlinked.pid, active.pid, approved.pid])),
      409,
    );
    expect(refused.code).toBe('PROLIFIC_NOT_REVIEWABLE');
    expect(refused.issues.map((i) => i.path)).toEqual([unlinked.pid, active.pid, approved.pid]);
    expect(refused.issues[0]?.message).toContain('none linked');
    expect(transitions()).toEqual([]);
    expect(await statusOf(mine.assignmentId)).toBe('awaiting_review');
  });

  it('a double click rejects each submission once', async () => {
    const id = await f.linkedExperiment();
    const subs = [await f.participant(id), await f.participant(id)];
    const body = { prolificPids: subs.map((s) => s.pid), category: 'NO_CODE', message: MESSAGE, confirm: true };
    const replies = await Promise.all([reject(id, body), reject(id, body)]);
    const rejected = replies.flatMap((r) =>
      r.statusCode === 200 ? (r.json() as { rejected: string[] }).rejected : [],
    );
    expect(rejected.sort()).toEqual(subs.map((s) => s.pid).sort());
    expect(transitions()).toHaveLength(2);
    expect(new Set(transitions().map((r) => r.path)).size).toBe(2);
  });

  it('when Prolific fails (5xx), the submission awaits review again and the failure is audited; a retry rejects it', async () => {
    const id = await f.linkedExperiment();
    const a = await f.participant(id);
    const body = { prolificPids: [a.pid], category: 'OTHER', message: MESSAGE, confirm: true };
    fake.failures.push({ status: 503 });
    expect(expectJson<{ code: string }>(await reject(id, body), 502).code).toBe('PROLIFIC_UNAVAILABLE');
    expect(await statusOf(a.assignmentId)).toBe('awaiting_review');
    expect(await f.auditOf('prolific.submissions.reject.failed', id)).toEqual([
      expect.objectContaining({ category: 'OTHER', prolificPids: [a.pid] }),
    ]);
    expect(expectJson(await reject(id, body), 200)).toEqual({ rejected: [a.pid], failed: [] });
  });

  it('one of several Prolific refuses is reported and put back; the others are rejected', async () => {
    const id = await f.linkedExperiment();
    const a = await f.participant(id);
    const b = await f.participant(id);
    // Prolific has it as approved already (our webhook row is behind): it refuses the transition.
    const stale = fake.submissions.find((s) => s.id === b.submissionId);
    if (stale) stale.status = 'APPROVED';
    const reply = expectJson<{ rejected: string[]; failed: { prolificPid: string; error: string }[] }>(
      await reject(id, { prolificPids: [a.pid, b.pid], category: 'BAD_CODE', message: MESSAGE, confirm: true }),
      200,
    );
    expect(reply.rejected).toEqual([a.pid]);
    expect(reply.failed).toEqual([{ prolificPid: b.pid, error: expect.stringContaining('400') }]);
    expect(await statusOf(b.assignmentId)).toBe('awaiting_review');
  });
});

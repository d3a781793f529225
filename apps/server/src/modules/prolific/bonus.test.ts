import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BonusBatch } from '@studychat/contracts';
import { createAndLogin, createTestApp, expectJson, type TestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS, dropTestSchemas } from '../../../test/databases.js';
import { insertExperimentRow } from '../../../test/factories.js';
import { startFakeProlific, type FakeProlific } from '../../../test/fakes/prolific-fake.js';
import { payFixtures, STUDY } from './pay.fixtures.js';

// Bonuses through our ledger against the fake Prolific (both databases, docs/decisions/0089): from a rule or a CSV
// (every bad line listed), set up once and paid once under a retry, a double click, two requests at once, a pay
// that failed after its set-up, a 429; a Prolific id bonused before needs a confirmation; all audited.

const BONUS_SETUP = '/api/v1/submissions/bonus-payments/';
const key = () => `key-${randomUUID()}`;

describe.each(TEST_DIALECTS)('bonuses on %s', (dialect) => {
  let t: TestApp;
  let fake: FakeProlific;
  let admin: TestUser;
  const slept: number[] = [];
  const f = payFixtures(
    () => t,
    () => fake,
    () => admin,
  );

  beforeAll(async () => {
    fake = await startFakeProlific();
    t = await createTestApp(dialect, {
      config: { prolific: { apiUrl: fake.url, timeoutMs: 2000 } },
      deps: {
        sleep: async (ms) => {
          slept.push(ms);
        },
      },
    });
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
    slept.length = 0;
  });

  const prepare = (experimentId: string, body: object) =>
    f.send('POST', `/api/experiments/${experimentId}/prolific/bonuses`, body);
  const pay = (experimentId: string, batchId: string, body: object = {}) =>
    f.send('POST', `/api/experiments/${experimentId}/prolific/bonuses/${batchId}/pay`, body);
  const setUpsOf = (experimentRequests = fake.requests) => experimentRequests.filter((r) => r.path === BONUS_SETUP);
  const paysOf = (bulkId: string | null) =>
    fake.requests.filter((r) => r.path === `/api/v1/bulk-bonus-payments/${bulkId}/pay/`);

  it('pays a rule’s completers once: prepared, set up, paid; a retry and the same key change nothing; audited', async () => {
    const id = await f.linkedExperiment();
    const a = await f.participant(id, { pathway: 'complete' });
    const b = await f.participant(id, { pathway: 'complete', status: 'approved' });
    await f.participant(id, { pathway: 'ceiling' });
    await f.participant(id, { pathway: 'complete', status: 'rejected' });
    await f.participant(id, { pathway: 'complete', isTest: true });
    const k = key();
    const body = {
      idempotencyKey: k,
      reason: 'Thanks for a thoughtful chat',
      source: { kind: 'rule', pathway: 'complete', amount: '0.5' },
    };

    const batch = expectJson<BonusBatch>(await prepare(id, body), 200);
    expect(batch.status).toBe('prepared');
    expect(batch.lines.map((l) => [l.prolificPid, l.amountCents, l.amount])).toEqual(
      [a.pid, b.pid].sort().map((pid) => [pid, 50, '0.50']),
    );
    expect([batch.totalCents, batch.total]).toEqual([100, '1.00']);
    expect(fake.requests).toEqual([]);
    // The same key again (a double click on "Prepare"): the same batch, whatever the body says.
    const again = expectJson<BonusBatch>(
      await prepare(id, { ...body, source: { kind: 'rule', pathway: 'ceiling', amount: '9' } }),
      200,
    );
    expect(again.id).toBe(batch.id);
    expect(again.totalCents).toBe(100);

    const paid = expectJson<BonusBatch>(await pay(id, batch.id), 200);
    expect(paid.status).toBe('paid');
    expect(paid.prolificBulkId).toMatch(/^bulk/);
    expect(setUpsOf().map((r) => r.body)).toEqual([
      {
        study_id: STUDY,
        csv_bonuses: [a.pid, b.pid]
          .sort()
          .map((pid) => `${pid},0.50`)
          .join('\n'),
      },
    ]);
    expect(fake.paid.get(String(paid.prolificBulkId))).toBe(1);

    // A retry after success answers the paid batch and calls Prolific no more.
    expect(expectJson<BonusBatch>(await pay(id, batch.id), 200).status).toBe('paid');
    expect(setUpsOf()).toHaveLength(1);
    expect(paysOf(paid.prolificBulkId)).toHaveLength(1);
    expect(fake.paid.get(String(paid.prolificBulkId))).toBe(1);

    expect(await f.auditOf('prolific.bonus.prepare', id)).toEqual([
      expect.objectContaining({ batchId: batch.id, source: 'rule', lines: 2, totalCents: 100 }),
      expect.objectContaining({ batchId: batch.id, source: 'rule', lines: 2, totalCents: 100 }),
    ]);
    expect(await f.auditOf('prolific.bonus.pay', id)).toEqual([
      expect.objectContaining({
        batchId: batch.id,
        status: 'paid',
        totalCents: 100,
        prolificBulkId: paid.prolificBulkId,
      }),
      expect.objectContaining({ batchId: batch.id, status: 'paid' }),
    ]);
    const list = expectJson<{ batches: BonusBatch[] }>(
      await f.send('GET', `/api/experiments/${id}/prolific/bonuses`),
      200,
    );
    expect(list.batches.map((x) => [x.id, x.status])).toEqual([[batch.id, 'paid']]);
  });

  it('a CSV: every bad line listed (unknown id, bad amount, duplicate, malformed), nothing stored; a good one pays', async () => {
    const id = await f.linkedExperiment();
    const other = await f.linkedExperiment();
    const a = await f.participant(id);
    const b = await f.participant(id);
    const stranger = await f.participant(other);
    const bad = [
      'participant_id,amount',
      `${a.pid},0.50`,
      `${stranger.pid},1.00`,
      `${b.pid},-1`,
      `${b.pid},0`,
      `${b.pid},1.005`,
      `${a.pid},2.00`,
      'no comma here',
      `${b.pid},100.01`,
      `<script>,1.00`,
    ].join('\n');
    const res = await prepare(id, { idempotencyKey: key(), reason: 'csv', source: { kind: 'csv', csv: bad } });
    const reply = expectJson<{ code: string; error: string; issues: { path: string; message: string }[] }>(res, 400);
    expect(reply.code).toBe('BONUS_LINES_INVALID');
    expect(reply.issues.map((i) => i.path)).toEqual([
      'line 3',
      'line 4',
      'line 5',
      'line 6',
      'line 7',
      'line 8',
      'line 9',
      'line 10',
    ]);
    expect(reply.issues[0]?.message).toContain('not a participant of this experiment');
    expect(reply.issues[4]?.message).toContain('already on line 2');
    expect(
      expectJson<{ batches: unknown[] }>(await f.send('GET', `/api/experiments/${id}/prolific/bonuses`), 200).batches,
    ).toEqual([]);

    const good = `\uFEFFPID,amount\r\n${a.pid}, 1.5\r\n\r\n${b.pid},2\r\n`;
    const batch = expectJson<BonusBatch>(
      await prepare(id, { idempotencyKey: key(), reason: 'csv', source: { kind: 'csv', csv: good } }),
      200,
    );
    expect(batch.lines.map((l) => [l.prolificPid, l.amountCents]).sort()).toEqual(
      [
        [a.pid, 150],
        [b.pid, 200],
      ].sort(),
    );
    expect(batch.total).toBe('3.50');
    const paid = expectJson<BonusBatch>(await pay(id, batch.id), 200);
    expect(
      String((setUpsOf()[0]?.body as { csv_bonuses: string }).csv_bonuses)
        .split('\n')
        .sort(),
    ).toEqual([`${a.pid},1.50`, `${b.pid},2.00`].sort());
    expect(fake.paid.get(String(paid.prolificBulkId))).toBe(1);
  });

  it('two pay requests at once (and two prepares with one key) set up once and pay once', async () => {
    const id = await f.linkedExperiment();
    await f.participant(id);
    await f.participant(id);
    const body = { idempotencyKey: key(), reason: 'both', source: { kind: 'rule', pathway: 'complete', amount: '1' } };
    const prepared = await Promise.all([prepare(id, body), prepare(id, body)]);
    const ids = prepared.map((r) => expectJson<BonusBatch>(r, 200).id);
    expect(ids[0]).toBe(ids[1]);
    const batchId = String(ids[0]);
    const replies = await Promise.all([pay(id, batchId), pay(id, batchId), pay(id, batchId)]);
    const statuses = replies.map((r) => expectJson<BonusBatch>(r, 200).status);
    expect(statuses).toContain('paid');
    expect(setUpsOf()).toHaveLength(1);
    const bulkId = fake.bonusSetUps.at(-1)?.id ?? '';
    expect(paysOf(bulkId)).toHaveLength(1);
    expect(fake.paid.get(bulkId)).toBe(1);
    const count = await t.database.db
      .selectFrom('prolific_bonus_batches')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('experiment_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('a pay that fails after its set-up is not tried again blindly; confirmed, it pays the same bulk id once', async () => {
    const id = await f.linkedExperiment();
    await f.participant(id);
    const batch = expectJson<BonusBatch>(
      await prepare(id, {
        idempotencyKey: key(),
        reason: 'r',
        source: { kind: 'rule', pathway: 'complete', amount: '0.25' },
      }),
      200,
    );
    fake.failures.push({ status: 503, path: '/api/v1/bulk-bonus-payments/' });
    const failed = expectJson<{ code: string; error: string }>(await pay(id, batch.id), 502);
    expect(failed.code).toBe('PROLIFIC_UNAVAILABLE');
    expect(failed.error).toContain('check its bonuses page');
    const bulkId = fake.bonusSetUps.at(-1)?.id ?? '';
    expect(fake.paid.get(bulkId)).toBeUndefined();
    const listed = expectJson<{ batches: BonusBatch[] }>(
      await f.send('GET', `/api/experiments/${id}/prolific/bonuses`),
      200,
    );
    expect(listed.batches[0]).toMatchObject({ status: 'failed', prolificBulkId: bulkId });

    // A plain retry (a double click, a reload) is refused and calls nothing.
    const before = fake.requests.length;
    expect(expectJson<{ code: string }>(await pay(id, batch.id), 409).code).toBe('BONUS_PAY_UNCERTAIN');
    expect(fake.requests.length).toBe(before);
    // The researcher checked on Prolific: pays that bulk id, without a second set-up.
    const paid = expectJson<BonusBatch>(await pay(id, batch.id, { confirmNotPaid: true }), 200);
    expect(paid).toMatchObject({ status: 'paid', prolificBulkId: bulkId });
    expect(setUpsOf()).toHaveLength(1);
    expect(fake.paid.get(bulkId)).toBe(1);
    expect(await f.auditOf('prolific.bonus.pay.failed', id)).toEqual([
      expect.objectContaining({ batchId: batch.id, step: 'pay', outcome: 'failed' }),
    ]);
    expect(await f.auditOf('prolific.bonus.pay', id)).toEqual([
      expect.objectContaining({ status: 'paid', confirmNotPaid: true }),
    ]);
  });

  it('a pay Prolific refused (4xx) paid nothing: a plain retry pays it once; one paid with its answer lost is not paid twice', async () => {
    const id = await f.linkedExperiment();
    await f.participant(id);
    const prep = async () =>
      expectJson<BonusBatch>(
        await prepare(id, {
          idempotencyKey: key(),
          reason: 'r',
          source: { kind: 'rule', pathway: 'complete', amount: '1' },
        }),
        200,
      );
    const refused = await prep();
    fake.failures.push({ status: 400, path: '/api/v1/bulk-bonus-payments/' });
    expect((await pay(id, refused.id)).statusCode).toBe(502);
    const retried = expectJson<BonusBatch>(await pay(id, refused.id, { confirmRepeats: true }), 200);
    expect(retried.status).toBe('paid');
    expect(fake.paid.get(String(retried.prolificBulkId))).toBe(1);

    // Prolific paid but its answer was lost (502 after the work): the ledger says "unknown", a retry is refused.
    const lost = await prep();
    expect(lost.lines.every((l) => l.alreadyBonused)).toBe(true);
    fake.failures.push({ status: 502, path: '/api/v1/bulk-bonus-payments/', afterWork: true });
    expect((await pay(id, lost.id, { confirmRepeats: true })).statusCode).toBe(502);
    const bulkId = fake.bonusSetUps.at(-1)?.id ?? '';
    expect(fake.paid.get(bulkId)).toBe(1);
    expect(expectJson<{ code: string }>(await pay(id, lost.id, { confirmRepeats: true }), 409).code).toBe(
      'BONUS_PAY_UNCERTAIN',
    );
    expect(fake.paid.get(bulkId)).toBe(1);
  });

  it('waits out a 429 (Retry-After, through the injected sleep) and then sets up and pays once', async () => {
    const id = await f.linkedExperiment();
    await f.participant(id);
    const batch = expectJson<BonusBatch>(
      await prepare(id, {
        idempotencyKey: key(),
        reason: 'r',
        source: { kind: 'rule', pathway: 'complete', amount: '1' },
      }),
      200,
    );
    fake.failures.push({ status: 429, retryAfter: '3', path: BONUS_SETUP });
    fake.failures.push({ status: 429, path: '/api/v1/bulk-bonus-payments/' });
    const paid = expectJson<BonusBatch>(await pay(id, batch.id), 200);
    expect(paid.status).toBe('paid');
    expect(slept).toEqual([3000, 1000]);
    expect(fake.bonusSetUps.filter((s) => s.id === paid.prolificBulkId)).toHaveLength(1);
    expect(fake.paid.get(String(paid.prolificBulkId))).toBe(1);
  });

  it('a Prolific id bonused in another batch is flagged, and paid again only with confirmRepeats', async () => {
    const id = await f.linkedExperiment();
    const a = await f.participant(id);
    const body = (amount: string) => ({
      idempotencyKey: key(),
      reason: 'r',
      source: { kind: 'csv', csv: `${a.pid},${amount}` },
    });
    const first = expectJson<BonusBatch>(await prepare(id, body('1')), 200);
    // Only prepared: not yet a bonus, so not flagged.
    const second = expectJson<BonusBatch>(await prepare(id, body('2')), 200);
    expect(second.lines[0]?.alreadyBonused).toBe(false);
    expectJson(await pay(id, first.id), 200);
    const refused = expectJson<{ code: string; issues: { path: string }[] }>(await pay(id, second.id), 409);
    expect(refused).toMatchObject({ code: 'BONUS_REPEAT_UNCONFIRMED', issues: [{ path: a.pid }] });
    expect(setUpsOf()).toHaveLength(1);
    const listed = expectJson<{ batches: BonusBatch[] }>(
      await f.send('GET', `/api/experiments/${id}/prolific/bonuses`),
      200,
    );
    expect(listed.batches.find((x) => x.id === second.id)?.lines[0]?.alreadyBonused).toBe(true);
    expect(expectJson<BonusBatch>(await pay(id, second.id, { confirmRepeats: true }), 200).status).toBe('paid');
  });

  it('refuses: unknown experiment, another experiment’s batch, no linked study, hostile bodies, no token', async () => {
    const id = await f.linkedExperiment();
    await f.participant(id);
    const batch = expectJson<BonusBatch>(
      await prepare(id, {
        idempotencyKey: key(),
        reason: 'r',
        source: { kind: 'rule', pathway: 'complete', amount: '1' },
      }),
      200,
    );
    const other = await f.linkedExperiment();
    expect(expectJson<{ code: string }>(await pay(other, batch.id), 404).code).toBe('NOT_FOUND');
    expect((await pay(randomUUID(), batch.id)).statusCode).toBe(404);
    const unlinked = String((await insertExperimentRow(t.database.db)).id);
    await f.participant(unlinked);
    const noLink = await prepare(unlinked, {
      idempotencyKey: key(),
      reason: 'r',
      source: { kind: 'rule', pathway: 'complete', amount: '1' },
    });
    expect(expectJson<{ code: string }>(noLink, 409).code).toBe('PROLIFIC_STUDY_NOT_LINKED');
    for (const hostile of [
      { idempotencyKey: 'short', reason: 'r', source: { kind: 'rule', pathway: 'complete', amount: '1' } },
      { idempotencyKey: key(), reason: '', source: { kind: 'rule', pathway: 'complete', amount: '1' } },
      { idempotencyKey: key(), reason: 'r', source: { kind: 'rule', pathway: 'complete', amount: '1e3' } },
      { idempotencyKey: key(), reason: 'r', source: { kind: 'rule', pathway: 'complete', amount: '0' } },
      { idempotencyKey: key(), reason: 'r', source: { kind: 'rule', pathway: 'nope', amount: '1' } },
      { idempotencyKey: key(), reason: 'r', source: { kind: 'sql', csv: 'x' } },
      { idempotencyKey: key(), reason: 'r', source: { kind: 'csv', csv: '' } },
    ]) {
      const res = await prepare(id, hostile);
      expect(res.statusCode, JSON.stringify(hostile)).toBe(400);
      expect(res.json()).toMatchObject({ code: expect.stringMatching(/VALIDATION_FAILED|BONUS_LINES_INVALID/) });
    }
    expect((await pay(id, batch.id, { confirmRepeats: 'yes' })).statusCode).toBe(400);
    expectJson(await f.send('DELETE', '/api/admin/prolific'), 200);
    try {
      expect(expectJson<{ code: string }>(await pay(id, batch.id), 409).code).toBe('PROLIFIC_NOT_CONFIGURED');
      expect(fake.requests).toEqual([]);
    } finally {
      expectJson(await f.send('PUT', '/api/admin/prolific', { apiToken: fake.token }), 200);
    }
  });
});

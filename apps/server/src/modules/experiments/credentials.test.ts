import { describe, expect, it } from 'vitest';
import type { GeneratedCredential } from '@studychat/contracts';
import { CREDENTIAL_BATCH_MAX } from '@studychat/contracts';
import { createAndLogin, expectJson, useTestApp } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { createExperiment, send } from '../participants/journey.fixtures.js';
import { testConfig } from '../../../test/app.js';
import { generateCredentials, generateStudyEmail } from './credentials.service.js';

type ErrorBody = { error: string; code: string };

describe.each(TEST_DIALECTS)('batch credentials on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('generates study logins, returns passwords once and stores only peppered HMACs of them', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    const res = await send(t(), admin, 'POST', `/api/experiments/${id}/batch-credentials`, { count: 5 });
    const creds = expectJson<GeneratedCredential[]>(res, 201);
    expect(creds).toHaveLength(5);
    expect(new Set(creds.map((c) => c.email)).size).toBe(5);
    for (const c of creds) {
      expect(c.email).toMatch(/^study-[a-z2-9]{8}@studychat\.local$/);
      expect(c.password).toMatch(/^[A-HJ-NP-Za-km-z2-9]{16}$/);
    }

    const rows = await t()
      .database.db.selectFrom('users')
      .selectAll()
      .where(
        'email',
        'in',
        creds.map((c) => c.email),
      )
      .execute();
    expect(rows).toHaveLength(5);
    const dump = JSON.stringify(rows);
    for (const c of creds) expect(dump).not.toContain(c.password);
    for (const row of rows) {
      expect(row.password_hash).toMatch(/^hmac-sha256\$[A-Za-z0-9_-]{43}$/);
      expect(JSON.parse(row.metadata ?? '{}')).toEqual({
        experimentId: id,
        batchId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        generatedAt: '2026-11-20T10:00:00.000Z',
        generatedBy: admin.id,
      });
    }
    // One batch id for the whole batch.
    expect(new Set(rows.map((r) => JSON.parse(r.metadata ?? '{}').batchId)).size).toBe(1);

    const first = creds[0];
    if (!first) throw new Error('no credentials');
    const login = await t().app.inject({ method: 'POST', url: '/api/auth/login', payload: first });
    expect(expectJson<{ user: { email: string } }>(login, 200).user.email).toBe(first.email);
  });

  it('refuses counts that are not a whole number from 1 to the maximum, writing nothing', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    const before = await t()
      .database.db.selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const url = `/api/experiments/${id}/batch-credentials`;
    for (const count of [0, -1, 'abc', '5', 2.5, null, CREDENTIAL_BATCH_MAX + 1]) {
      const body = expectJson<ErrorBody>(await send(t(), admin, 'POST', url, { count }), 400);
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(body.error).toMatch(/count/);
    }
    const over = expectJson<ErrorBody>(await send(t(), admin, 'POST', url, { count: CREDENTIAL_BATCH_MAX + 1 }), 400);
    expect(over.error).toContain(`At most ${CREDENTIAL_BATCH_MAX} credentials`);
    const zero = expectJson<ErrorBody>(await send(t(), admin, 'POST', url, { count: 0 }), 400);
    expect(zero.error).toContain('count must be greater than 0');
    expect((await send(t(), admin, 'POST', url, {})).statusCode).toBe(400);
    const after = await t()
      .database.db.selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('answers 404 for an unknown experiment', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const res = await send(
      t(),
      admin,
      'POST',
      '/api/experiments/00000000-0000-4000-8000-000000000000/batch-credentials',
      {
        count: 1,
      },
    );
    expect(expectJson<ErrorBody>(res, 404).code).toBe('NOT_FOUND');
  });
});

describe('credential helpers', () => {
  it('makes distinct research-style addresses', () => {
    const emails = new Set(Array.from({ length: 500 }, generateStudyEmail));
    expect(emails.size).toBe(500);
  });
});

describe.each(TEST_DIALECTS)('study email clashes on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('replaces an address already taken, in the database or earlier in the same batch', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id } = await createExperiment(t(), admin);
    const taken = await createAndLogin(t(), { email: 'study-taken@studychat.local' });
    const sequence = [
      taken.email,
      'study-one@studychat.local',
      'study-one@studychat.local',
      'study-two@studychat.local',
      'study-three@studychat.local',
    ];
    const next = () => sequence.shift() ?? 'study-spare@studychat.local';
    const creds = await generateCredentials(t().deps, testConfig().passwordPepper, id, 3, admin.id, next);
    expect(creds.map((c) => c.email).sort()).toEqual([
      'study-one@studychat.local',
      'study-three@studychat.local',
      'study-two@studychat.local',
    ]);
    // Each returned password belongs to its returned address.
    for (const cred of creds) {
      const login = await t().app.inject({ method: 'POST', url: '/api/auth/login', payload: cred });
      expect(login.statusCode).toBe(200);
    }
    const original = await t().app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: taken.email, password: taken.password },
    });
    expect(original.statusCode).toBe(200);
  });
});

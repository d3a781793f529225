import { describe, expect, it } from 'vitest';
import type { Experiment } from '@studychat/contracts';
import { createAndLogin, expectJson, useTestApp } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { CODES, createExperiment, participantAt, send } from '../participants/journey.fixtures.js';

type ErrorBody = { error: string; code: string };

describe.each(TEST_DIALECTS)('experiment routes on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('lets an admin create, list, read and edit experiments', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const created = expectJson<Experiment>(
      await send(t(), admin, 'POST', '/api/experiments', { name: '  Pilot  ', description: '' }),
      201,
    );
    expect(created).toMatchObject({
      name: 'Pilot',
      description: null,
      completion_codes: { complete: null, exitnoqualms: null, exitceiling: null },
      created_at: '2026-11-20T10:00:00.000Z',
      updated_at: '2026-11-20T10:00:00.000Z',
    });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);

    const list = expectJson<Experiment[]>(await send(t(), admin, 'GET', '/api/experiments'), 200);
    expect(list.map((e) => e.id)).toContain(created.id);
    expect(expectJson<Experiment>(await send(t(), admin, 'GET', `/api/experiments/${created.id}`), 200)).toEqual(
      created,
    );

    t().clock.advance(60_000);
    const renamed = expectJson<Experiment>(
      await send(t(), admin, 'PUT', `/api/experiments/${created.id}`, { description: 'About MMR' }),
      200,
    );
    expect(renamed).toMatchObject({ name: 'Pilot', description: 'About MMR', updated_at: '2026-11-20T10:01:00.000Z' });
    expect(renamed.created_at).toBe(created.created_at);
  });

  it('updates only the completion codes that are sent and refuses empty ones', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const experiment = await createExperiment(t(), admin, false);
    const url = `/api/experiments/${experiment.id}/completion-codes`;
    expect(expectJson(await send(t(), admin, 'PUT', url, { codes: { complete: ' C1 ' } }), 200)).toEqual({
      codes: { complete: 'C1', exitnoqualms: null, exitceiling: null },
    });
    expect(expectJson(await send(t(), admin, 'PUT', url, { codes: { exitceiling: 'C3' } }), 200)).toEqual({
      codes: { complete: 'C1', exitnoqualms: null, exitceiling: 'C3' },
    });
    for (const codes of [{ complete: '   ' }, { complete: '' }, { other: 'X' }]) {
      const body = expectJson<ErrorBody>(await send(t(), admin, 'PUT', url, { codes }), 400);
      expect(body.code).toBe('VALIDATION_FAILED');
    }
    const after = expectJson<Experiment>(await send(t(), admin, 'GET', `/api/experiments/${experiment.id}`), 200);
    expect(after.completion_codes).toEqual({ complete: 'C1', exitnoqualms: null, exitceiling: 'C3' });
  });

  it('refuses bad input with 400 and unknown experiments with 404', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const payload of [{ name: '' }, { name: '   ' }, {}, { name: 'x'.repeat(201) }]) {
      expect(expectJson<ErrorBody>(await send(t(), admin, 'POST', '/api/experiments', payload), 400).code).toBe(
        'VALIDATION_FAILED',
      );
    }
    expect((await send(t(), admin, 'GET', '/api/experiments/not-a-uuid')).statusCode).toBe(400);
    expect(expectJson<ErrorBody>(await send(t(), admin, 'GET', `/api/experiments/${missing}`), 404).code).toBe(
      'NOT_FOUND',
    );
    expect((await send(t(), admin, 'PUT', `/api/experiments/${missing}`, { name: 'A' })).statusCode).toBe(404);
    expect(
      (await send(t(), admin, 'PUT', `/api/experiments/${missing}/completion-codes`, { codes: CODES })).statusCode,
    ).toBe(404);
    expect((await send(t(), admin, 'PUT', `/api/experiments/${missing}`, {})).statusCode).toBe(400);
  });

  it('keeps experiment management to admins: 401 without a token, 403 for a participant', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const participant = await createAndLogin(t());
    const { id } = await createExperiment(t(), admin);
    const calls: ['GET' | 'POST' | 'PUT', string, unknown][] = [
      ['GET', '/api/experiments', undefined],
      ['POST', '/api/experiments', { name: 'X' }],
      ['GET', `/api/experiments/${id}`, undefined],
      ['PUT', `/api/experiments/${id}`, { name: 'X' }],
      ['PUT', `/api/experiments/${id}/completion-codes`, { codes: { complete: 'X' } }],
      ['POST', `/api/experiments/${id}/batch-credentials`, { count: 1 }],
    ];
    for (const [method, url, payload] of calls) {
      expect(expectJson<ErrorBody>(await send(t(), undefined, method, url, payload), 401).code).toBe('UNAUTHENTICATED');
      expect(expectJson<ErrorBody>(await send(t(), participant, method, url, payload), 403).code).toBe('FORBIDDEN');
    }
    expect(
      (await send(t(), undefined, 'GET', `/api/experiments/${id}/completion-code?pathway=complete`)).statusCode,
    ).toBe(401);
    const after = expectJson<Experiment>(await send(t(), admin, 'GET', `/api/experiments/${id}`), 200);
    expect(after.name).toBe('MMR study');
    expect(after.completion_codes).toEqual(CODES);
  });

  it('keeps the codes in the completion_codes table, one row per pathway, each experiment its own', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const first = await createExperiment(t(), admin);
    const second = await createExperiment(t(), admin, false);
    await send(t(), admin, 'PUT', `/api/experiments/${second.id}/completion-codes`, { codes: { exitceiling: 'S3' } });
    const rows = await t()
      .database.db.selectFrom('completion_codes')
      .select(['pathway', 'code'])
      .where('experiment_id', '=', second.id)
      .execute();
    expect(rows).toEqual([{ pathway: 'ceiling', code: 'S3' }]);
    const list = expectJson<Experiment[]>(await send(t(), admin, 'GET', '/api/experiments'), 200);
    expect(list.find((e) => e.id === first.id)?.completion_codes).toEqual(CODES);
    expect(list.find((e) => e.id === second.id)?.completion_codes).toEqual({
      complete: null,
      exitnoqualms: null,
      exitceiling: 'S3',
    });
    // The release reads the table: a code changed there is the code given out.
    await t()
      .database.db.updateTable('completion_codes')
      .set({ code: 'S3-NEW' })
      .where('experiment_id', '=', second.id)
      .execute();
    const url = `/api/experiments/${second.id}/completion-code?pathway=ceiling`;
    expect(expectJson(await send(t(), admin, 'GET', url), 200)).toMatchObject({ code: 'S3-NEW', key: 'exitceiling' });
  });

  describe('completion code release', () => {
    it('gives admins any configured code and 404 CODE_NOT_CONFIGURED for an unset one', async () => {
      const admin = await createAndLogin(t(), { isAdmin: true });
      const configured = await createExperiment(t(), admin);
      const url = (id: string, pathway: string) => `/api/experiments/${id}/completion-code?pathway=${pathway}`;
      expect(expectJson(await send(t(), admin, 'GET', url(configured.id, 'confirm')), 200)).toEqual({
        code: 'CODE-NOQUALMS',
        pathway: 'confirm',
        key: 'exitnoqualms',
      });
      expect(expectJson(await send(t(), admin, 'GET', url(configured.id, 'ceiling')), 200)).toMatchObject({
        code: 'CODE-CEILING',
        key: 'exitceiling',
      });
      const bare = await createExperiment(t(), admin, false);
      const body = expectJson<ErrorBody>(await send(t(), admin, 'GET', url(bare.id, 'complete')), 404);
      expect(body).toEqual({
        error: 'A completion code has not been configured for this pathway. Please contact the research team.',
        code: 'CODE_NOT_CONFIGURED',
      });
      expect((await send(t(), admin, 'GET', url(configured.id, 'other'))).statusCode).toBe(400);
      expect((await send(t(), admin, 'GET', `/api/experiments/${configured.id}/completion-code`)).statusCode).toBe(400);
    });

    it('releases each code to a participant only once their own records earn that pathway', async () => {
      const admin = await createAndLogin(t(), { isAdmin: true });
      const { id } = await createExperiment(t(), admin);
      const url = (pathway: string) => `/api/experiments/${id}/completion-code?pathway=${pathway}`;
      const cases = [
        { pathway: 'confirm', code: 'CODE-NOQUALMS', before: 'consented', after: 'confirm', baseline: 4 },
        { pathway: 'ceiling', code: 'CODE-CEILING', before: 'questions', after: 'baseline', baseline: 7 },
        { pathway: 'complete', code: 'CODE-COMPLETE', before: 'assigned', after: 'post', baseline: 3 },
      ] as const;
      for (const c of cases) {
        const early = await participantAt(t(), id, c.before, { baseline: c.baseline });
        for (const pathway of ['confirm', 'ceiling', 'complete']) {
          const refused = expectJson<ErrorBody>(await send(t(), early, 'GET', url(pathway)), 403);
          expect(refused.code).toBe('PATHWAY_NOT_EARNED');
          expect(refused.error).toMatch(/only available/);
        }
        const done = await participantAt(t(), id, c.after, { baseline: c.baseline });
        expect(expectJson(await send(t(), done, 'GET', url(c.pathway)), 200)).toMatchObject({ code: c.code });
        // Earning one pathway does not release the others.
        for (const other of ['confirm', 'ceiling', 'complete'].filter((p) => p !== c.pathway)) {
          expect((await send(t(), done, 'GET', url(other))).statusCode).toBe(403);
        }
      }
    });

    it('answers a participant with 404 for an unknown experiment and CODE_NOT_CONFIGURED once earned', async () => {
      const admin = await createAndLogin(t(), { isAdmin: true });
      const bare = await createExperiment(t(), admin, false);
      const user = await participantAt(t(), bare.id, 'confirm');
      const res = await send(t(), user, 'GET', `/api/experiments/${bare.id}/completion-code?pathway=confirm`);
      expect(expectJson<ErrorBody>(res, 404).code).toBe('CODE_NOT_CONFIGURED');
      const missing = '00000000-0000-4000-8000-000000000000';
      const unknown = await send(t(), user, 'GET', `/api/experiments/${missing}/completion-code?pathway=confirm`);
      expect(expectJson<ErrorBody>(unknown, 404).code).toBe('NOT_FOUND');
      // A login that has not joined this (existing) experiment has earned nothing in it.
      const stranger = await createAndLogin(t());
      const notJoined = await send(t(), stranger, 'GET', `/api/experiments/${bare.id}/completion-code?pathway=confirm`);
      expect(expectJson<ErrorBody>(notJoined, 403).code).toBe('PATHWAY_NOT_EARNED');
    });
  });
});

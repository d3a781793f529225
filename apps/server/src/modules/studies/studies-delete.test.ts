import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { StudyVersion } from '@studychat/contracts';
import { createAndLogin, expectJson, newSession, useTestApp, type TestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { insertUserRow } from '../../../test/factories.js';
import { createExperiment, participantAt, send } from '../participants/journey.fixtures.js';
import { secondStudy } from './second-study.fixtures.js';
import { DEFAULT_STUDY_VERSION_ID } from './study-source.js';

// Deleting a study version (issue 34, docs/decisions/0077): only one no experiment pins and nobody ran.

type ErrorBody = { error: string; code: string };

describe.each(TEST_DIALECTS)('deleting a study version on %s', (dialect) => {
  const t = useTestApp(dialect);

  async function version(admin: TestUser, label = 'Sleep v1'): Promise<StudyVersion> {
    const res = await send(t(), admin, 'POST', '/api/admin/study-versions', { label, definition: secondStudy() });
    return expectJson<StudyVersion>(res, 201);
  }

  const remove = (admin: TestUser | undefined, id: string) =>
    send(t(), admin, 'DELETE', `/api/admin/study-versions/${id}`);

  async function pin(admin: TestUser, experimentId: string, versionId: string): Promise<void> {
    const res = await send(t(), admin, 'PUT', `/api/experiments/${experimentId}/study-version`, {
      study_version_id: versionId,
    });
    expectJson(res, 200);
  }

  it('deletes a version nobody pins or ran, audited; its copies keep their text', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const original = await version(admin);
    const copy = expectJson<StudyVersion>(
      await send(t(), admin, 'POST', `/api/admin/study-versions/${original.id}/clone`, {}),
      201,
    );
    expect(expectJson<{ id: string }>(await remove(admin, original.id), 200)).toEqual({ id: original.id });
    expect((await send(t(), admin, 'GET', `/api/admin/study-versions/${original.id}`)).statusCode).toBe(404);
    // The copy stays, no longer naming a parent that is gone.
    const kept = expectJson<StudyVersion>(await send(t(), admin, 'GET', `/api/admin/study-versions/${copy.id}`), 200);
    expect(kept.definition).toEqual(original.definition);
    const audit = await t()
      .database.db.selectFrom('audit_log')
      .select('actor_id')
      .where('action', '=', 'study_version.delete')
      .where('target_id', '=', original.id)
      .execute();
    expect(audit).toEqual([{ actor_id: admin.id }]);
    expect(expectJson<ErrorBody>(await remove(admin, original.id), 404).code).toBe('NOT_FOUND');
  });

  it('refuses the built-in study, a pinned version and a version someone ran (409), deleting nothing', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    // The built-in study.
    await createExperiment(t(), admin);
    expect(expectJson<ErrorBody>(await remove(admin, DEFAULT_STUDY_VERSION_ID), 409).code).toBe('STUDY_VERSION_IN_USE');

    // Pinned by an experiment nobody joined.
    const pinned = await version(admin, 'Pinned');
    const experiment = await createExperiment(t(), admin);
    await pin(admin, experiment.id, pinned.id);
    const refused = expectJson<ErrorBody>(await remove(admin, pinned.id), 409);
    expect(refused.code).toBe('STUDY_VERSION_PINNED');
    expect(refused.error).toMatch(/An experiment runs this study version/);

    // Once a participant ran it, it stays pinned (a re-pin is refused) and so stays.
    await participantAt(t(), experiment.id, 'joined');
    expect(expectJson<ErrorBody>(await remove(admin, pinned.id), 409).code).toBe('STUDY_VERSION_PINNED');

    for (const id of [DEFAULT_STUDY_VERSION_ID, pinned.id]) {
      expect((await send(t(), admin, 'GET', `/api/admin/study-versions/${id}`)).statusCode).toBe(200);
    }
  });

  it('refuses a version a test run used after its experiment moved to another version', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const used = await version(admin, 'Previewed');
    const experiment = await createExperiment(t(), admin);
    await pin(admin, experiment.id, used.id);
    await t()
      .database.db.insertInto('assignments')
      .values({
        id: randomUUID(),
        user_id: admin.id,
        experiment_id: experiment.id,
        prolific_pid: null,
        consent_given: false,
        is_test: true,
        study_version_id: used.id,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    // A test run does not lock the pin (0045): the experiment moves on to the built-in study.
    await pin(admin, experiment.id, DEFAULT_STUDY_VERSION_ID);
    const refused = expectJson<ErrorBody>(await remove(admin, used.id), 409);
    expect(refused).toMatchObject({ code: 'STUDY_VERSION_IN_USE' });
    expect(refused.error).toMatch(/ran this study version/);
  });

  it('is for admins only, 404 for an unknown version', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const row = await insertUserRow(t().database.db, { role: 'analyst' });
    const analyst = await newSession(t() as TestApp, { id: String(row.id), email: row.email }, 'analyst');
    const target = await version(admin);
    expect((await remove(undefined, target.id)).statusCode).toBe(401);
    expect((await remove(analyst, target.id)).statusCode).toBe(403);
    expect(expectJson<ErrorBody>(await remove(admin, randomUUID()), 404).code).toBe('NOT_FOUND');
    expect((await remove(admin, 'not-a-uuid')).statusCode).toBe(400);
    expect((await send(t(), admin, 'GET', `/api/admin/study-versions/${target.id}`)).statusCode).toBe(200);
  });
});

import { describe, expect, it } from 'vitest';
import type { StudyVersion } from '@studychat/contracts';
import { createAndLogin, expectJson, useTestApp } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { createExperiment, participantAt, send } from '../participants/journey.fixtures.js';
import { DEFAULT_STUDY_VERSION_ID } from './study-source.js';

// deps.studies (docs/decisions/0025): while an experiment has no real participant every call reads the
// database, so an edit or a new pin shows at once in every process; once it has one (or a withdrawal), the
// study cannot change and is kept in the process.

describe.each(TEST_DIALECTS)('the study source on %s', (dialect) => {
  const t = useTestApp(dialect);

  function studyStatements(): { count: () => number; stop: () => void } {
    let n = 0;
    t().database.queries.onQuery = (statement) => {
      if (/"study_versions"/.test(statement)) n += 1;
    };
    return { count: () => n, stop: () => (t().database.queries.onQuery = undefined) };
  }

  it('reads a draft on every call, so edits and pins show at once; keeps a locked study without reading', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const experiment = await createExperiment(t(), admin);
    const draft = expectJson<StudyVersion>(
      await send(t(), admin, 'POST', `/api/admin/study-versions/${DEFAULT_STUDY_VERSION_ID}/clone`, {}),
      201,
    );
    expectJson(
      await send(t(), admin, 'PUT', `/api/experiments/${experiment.id}/study-version`, {
        study_version_id: draft.id,
      }),
      200,
    );
    const studies = t().deps.studies;
    expect((await studies(experiment.id)).title).toBe(draft.definition.title);
    const edited = { ...draft.definition, title: 'Edited before launch' };
    expectJson(await send(t(), admin, 'PUT', `/api/admin/study-versions/${draft.id}`, { definition: edited }), 200);
    expect((await studies(experiment.id)).title).toBe('Edited before launch');
    // A preview does not lock it either.
    expectJson(
      await send(t(), admin, 'POST', `/api/experiments/${experiment.id}/previews`, { condition: 'control' }),
      201,
    );
    const watch = studyStatements();
    try {
      await studies(experiment.id);
      expect(watch.count()).toBe(1);

      await participantAt(t(), experiment.id, 'joined');
      await studies(experiment.id);
      const afterJoin = watch.count();
      await studies(experiment.id);
      await studies(experiment.id);
      expect(watch.count()).toBe(afterJoin);
    } finally {
      watch.stop();
    }
    expect((await studies(experiment.id)).title).toBe('Edited before launch');
  });

  it('keeps an experiment locked after its only participant withdrew: its version and pin cannot change', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const experiment = await createExperiment(t(), admin);
    const draft = expectJson<StudyVersion>(
      await send(t(), admin, 'POST', `/api/admin/study-versions/${DEFAULT_STUDY_VERSION_ID}/clone`, {}),
      201,
    );
    const pin = (id: string) =>
      send(t(), admin, 'PUT', `/api/experiments/${experiment.id}/study-version`, { study_version_id: id });
    expectJson(await pin(draft.id), 200);
    const user = await participantAt(t(), experiment.id, 'joined');
    const { prolific_pid } = (await t()
      .database.db.selectFrom('assignments')
      .select('prolific_pid')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow()) as { prolific_pid: string | null };
    expect(prolific_pid).toBeTruthy();
    expectJson(
      await send(t(), admin, 'POST', `/api/experiments/${experiment.id}/withdrawals`, { prolificId: prolific_pid }),
      200,
    );
    expect(
      await t().database.db.selectFrom('assignments').select('id').where('experiment_id', '=', experiment.id).execute(),
    ).toEqual([]);
    expect(expectJson<{ code: string }>(await pin(DEFAULT_STUDY_VERSION_ID), 409).code).toBe(
      'EXPERIMENT_HAS_PARTICIPANTS',
    );
    const edit = expectJson<{ code: string }>(
      await send(t(), admin, 'PUT', `/api/admin/study-versions/${draft.id}`, { label: 'After a withdrawal' }),
      409,
    );
    expect(edit.code).toBe('STUDY_VERSION_IN_USE');
  });
});

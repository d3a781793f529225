import { describe, expect, it } from 'vitest';
import type { StudyVersion } from '@studychat/contracts';
import { createAndLogin, expectJson, useTestApp } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { createExperiment, participantAt, send } from '../participants/journey.fixtures.js';
import { DEFAULT_STUDY_VERSION_ID } from './study-source.js';

// A researcher previews a version, edits it and previews again: test runs do not lock a version or its
// experiment's pin; the first real participant does (docs/decisions/0045).

describe.each(TEST_DIALECTS)('study version locking and previews on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('keeps a version editable and its experiment re-pinnable after previews, until a real participant joins', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    // Creating an experiment seeds the built-in version, which is cloned into an editable draft.
    const experiment = await createExperiment(t(), admin);
    const draft = expectJson<StudyVersion>(
      await send(t(), admin, 'POST', `/api/admin/study-versions/${DEFAULT_STUDY_VERSION_ID}/clone`, {}),
      201,
    );
    const pin = (versionId: string) =>
      send(t(), admin, 'PUT', `/api/experiments/${experiment.id}/study-version`, { study_version_id: versionId });
    expectJson(await pin(draft.id), 200);

    for (const condition of ['mmr', 'control']) {
      expectJson(await send(t(), admin, 'POST', `/api/experiments/${experiment.id}/previews`, { condition }), 201);
    }
    const edited = expectJson<StudyVersion>(
      await send(t(), admin, 'PUT', `/api/admin/study-versions/${draft.id}`, { label: 'Draft, after a preview' }),
      200,
    );
    expect(edited).toMatchObject({ label: 'Draft, after a preview', locked: false });
    const listed = expectJson<StudyVersion[]>(await send(t(), admin, 'GET', '/api/admin/study-versions'), 200);
    expect(listed.find((v) => v.id === draft.id)).toMatchObject({ locked: false });
    expectJson(await pin(DEFAULT_STUDY_VERSION_ID), 200);
    expectJson(await pin(draft.id), 200);

    // The first real participant locks both.
    await participantAt(t(), experiment.id, 'joined');
    const edit = expectJson<{ code: string }>(
      await send(t(), admin, 'PUT', `/api/admin/study-versions/${draft.id}`, { label: 'Too late' }),
      409,
    );
    expect(edit.code).toBe('STUDY_VERSION_IN_USE');
    expect(expectJson<{ code: string }>(await pin(DEFAULT_STUDY_VERSION_ID), 409).code).toBe(
      'EXPERIMENT_HAS_PARTICIPANTS',
    );
    const after = expectJson<StudyVersion>(await send(t(), admin, 'GET', `/api/admin/study-versions/${draft.id}`), 200);
    expect(after).toMatchObject({ label: 'Draft, after a preview', locked: true });
  });
});

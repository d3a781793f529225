import { createHash, randomUUID } from 'node:crypto';
import { strFromU8, unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { studyDefinition, type StudyDefinition } from '@studychat/contracts';
import { createAndLogin, useTestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { at, insertExperimentRow, seedParticipant } from '../../../test/factories.js';
import { csvObjects, parseCsv } from './parse-csv.testing.js';

// An experiment that runs another study version: participants.csv carries each participant's version, the
// package names the version with its content hash, and the codebook (sections, question wording) follows
// the pinned version, not the built-in MMR study.

const FLU_SECTION = studyDefinition.conditions.mmr.sections[0];
if (!FLU_SECTION) throw new Error('the built-in study has sections');
const FLU: StudyDefinition = {
  ...studyDefinition,
  id: 'flu-study',
  title: 'Flu study',
  entry: {
    ...studyDefinition.entry,
    questionsLabel: 'I have questions about the flu jab',
    confirmLabel: 'No questions',
  },
  baseline: { ...studyDefinition.baseline, question: 'How likely are you to get the flu jab this winter?' },
  post: { ...studyDefinition.post, question: 'And now, how likely are you to get the flu jab?' },
  conditions: {
    ...studyDefinition.conditions,
    mmr: {
      topic: 'the flu jab',
      sections: [1, 2, 3, 4, 5].map((n) => ({ ...FLU_SECTION, id: `flu-${n}`, title: `Part ${n}`, minSeconds: 5 })),
    },
  },
};

describe.each(TEST_DIALECTS)('study versions in the exports on %s', (dialect) => {
  const t = useTestApp(dialect);
  let admin: TestUser;
  let experimentId: string;
  const versionId = randomUUID();

  beforeAll(async () => {
    admin = await createAndLogin(t(), { isAdmin: true });
    const db = t().database.db;
    await db
      .insertInto('study_versions')
      .values({
        id: versionId,
        label: 'Flu, first version',
        definition: JSON.stringify(FLU),
        parent_id: null,
        is_default: false,
        created_by: null,
        created_at: at(0),
        updated_at: at(0),
      })
      .execute();
    experimentId = (await insertExperimentRow(db, { study_version_id: versionId })).id;
    await seedParticipant(db, experimentId, {
      assignment: {
        prolific_pid: 'PID-FLU',
        assigned_condition: 'mmr',
        consent_given: true,
        study_version_id: versionId,
      },
      entry: 'questions',
      baseline: 4,
      views: [6, 7, 8, 9, 10].map((seconds) => ({ seconds, minSeconds: 5 })),
    });
  });

  const get = (path: string) =>
    t().app.inject({ method: 'GET', url: `/api/experiments/${experimentId}/${path}`, headers: admin.headers });

  it('names the version in participants.csv and in datapackage.json, with its content hash', async () => {
    const res = await get('export-package');
    const files = Object.fromEntries(
      Object.entries(unzipSync(new Uint8Array(res.rawPayload))).map(([name, bytes]) => [name, strFromU8(bytes)]),
    );
    const [row] = csvObjects(files['participants.csv'] ?? '');
    expect(row).toMatchObject({ study_version_id: versionId, section_5_seconds: '10', all_sections_min_met: 'TRUE' });
    const hash = createHash('sha256').update(JSON.stringify(FLU)).digest('hex');
    const descriptor = JSON.parse(files['datapackage.json'] ?? '') as { studychat: Record<string, unknown> };
    expect(descriptor.studychat).toMatchObject({ study_id: 'flu-study', study_content_sha256: hash });
    expect(descriptor.studychat.study_versions).toEqual([
      { id: versionId, label: 'Flu, first version', study_id: 'flu-study', content_sha256: hash, pinned: true },
    ]);
    // The package's codebook describes participants.csv as the pinned version's single codebook does.
    const ofParticipants = (csv: string | undefined) =>
      csvObjects(csv ?? '').filter((e) => e.file === 'participants.csv');
    expect(ofParticipants(files['codebook.csv'])).toEqual(ofParticipants((await get('export/codebook.csv')).body));
    expect(ofParticipants(files['codebook.csv']).map((e) => e.column)).toContain('section_5_seconds');
  });

  it('writes the codebook from the pinned version: its sections and its questions, no MMR wording', async () => {
    const codebook = csvObjects((await get('export/codebook.csv')).body).filter((e) => e.file === 'participants.csv');
    const header = parseCsv((await get('export/participants.csv')).body)[0] ?? [];
    expect(codebook.map((e) => e.column)).toEqual(header);
    expect(header).toContain('section_5_seconds');
    const meaning = (column: string) => codebook.find((e) => e.column === column)?.meaning ?? '';
    expect(meaning('entry_choice')).toContain('I have questions about the flu jab');
    expect(meaning('baseline_intention')).toContain('How likely are you to get the flu jab this winter?');
    expect(meaning('post_intent')).toContain('And now, how likely are you to get the flu jab?');
    expect(codebook.map((e) => e.meaning).join('\n')).not.toMatch(/MMR/);
  });
});

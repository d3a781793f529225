import { beforeAll, describe, expect, it } from 'vitest';
import type { DetailedParticipantRow, StudyVersion } from '@studychat/contracts';
import { createAndLogin, expectJson, useTestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { buildSurvey, seedParticipant } from '../../../test/factories.js';
import { createExperiment, send } from '../participants/journey.fixtures.js';
import { secondStudy } from '../studies/second-study.fixtures.js';
import { csvObjects } from './parse-csv.testing.js';

// A test run stamped with another version than the one the experiment pins now (a preview run before the pin
// changed, docs/decisions/0045): its answers are read under the keys of the version it ran (0047).

describe.each(TEST_DIALECTS)('a test run of another study version in the exports on %s', (dialect) => {
  const t = useTestApp(dialect);
  let admin: TestUser;
  let experimentId: string;
  let testRunId: string;

  beforeAll(async () => {
    admin = await createAndLogin(t(), { isAdmin: true });
    const sleep = secondStudy();
    const version = expectJson<StudyVersion>(
      await send(t(), admin, 'POST', '/api/admin/study-versions', { label: 'Sleep, previewed', definition: sleep }),
      201,
    );
    experimentId = (await createExperiment(t(), admin)).id;
    const db = t().database.db;
    const run = await seedParticipant(db, experimentId, {
      assignment: { is_test: true, study_version_id: version.id, assigned_condition: 'control' },
    });
    testRunId = String(run.user.id);
    const ref = { userId: testRunId, experimentId };
    await db
      .insertInto('survey_responses')
      .values([
        buildSurvey(ref, 'entry', { [sleep.entry.key]: sleep.entry.values.continue }),
        buildSurvey(ref, 'baseline', { [sleep.baseline.key]: '2' }),
        buildSurvey(ref, 'pre', { children: '2+' }),
        buildSurvey(ref, 'post', { [sleep.post.key]: 5 }),
      ])
      .execute();
  });

  const get = async (path: string) => {
    const res = await send(t(), admin, 'GET', `/api/experiments/${experimentId}/${path}`);
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  it('reads the test run under its own version’s keys in participants.csv (columns: the pinned version’s)', async () => {
    const rows = csvObjects(await get('export/participants.csv?include_tests=true'));
    expect(rows.find((r) => r.user_id === testRunId)).toMatchObject({
      is_test: 'TRUE',
      entry_choice: 'questions',
      baseline_intention: '2',
      post_intent: '5',
      delta: '3',
      age: '',
    });
  });

  it('reads it the same way in the participants table', async () => {
    const rows = JSON.parse(await get('participants-detailed')) as DetailedParticipantRow[];
    expect(rows.find((r) => r.user_id === testRunId)).toMatchObject({ is_test: true, pre_intent: 2, post_intent: 5 });
  });
});

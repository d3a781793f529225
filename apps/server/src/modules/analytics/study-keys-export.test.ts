import { strFromU8, unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DetailedParticipantRow, StudyVersion } from '@studychat/contracts';
import { createAndLogin, expectJson, useTestApp, type TestUser } from '../../../test/app.js';
import { SwitchableModel } from '../../../test/chat.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { createExperiment, participantAt, send } from '../participants/journey.fixtures.js';
import { secondStudy } from '../studies/second-study.fixtures.js';
import { csvObjects, parseCsv } from './parse-csv.testing.js';

// A second study with its own answer keys (entry, baseline, two pre questions, post) and three sections at
// most, walked through the real routes: every export reads the answers under the pinned version's keys
// (docs/decisions/0047), so no column comes out empty.

interface Field {
  name: string;
  type: string;
  constraints?: { enum?: string[]; minimum?: number; maximum?: number };
}

/** The study's own words for two of its pathways (docs/decisions/0056); 'complete' keeps the spec's. */
const SLEEP_PATHWAYS = {
  confirm: { label: 'bedtime already settled', description: 'Given when the parent says the bedtime is settled.' },
  ceiling: { label: 'already certain to keep the plan', description: 'Given when the intention is already 7.' },
};

describe.each(TEST_DIALECTS)('exports of a study with its own answer keys on %s', (dialect) => {
  const t = useTestApp(dialect, { deps: { llm: new SwitchableModel() } });
  let admin: TestUser;
  let experimentId: string;
  let finished: TestUser;
  let leaving: TestUser;

  beforeAll(async () => {
    admin = await createAndLogin(t(), { isAdmin: true });
    const version = expectJson<StudyVersion>(
      await send(t(), admin, 'POST', '/api/admin/study-versions', {
        label: 'Sleep keys',
        definition: { ...secondStudy(), pathways: SLEEP_PATHWAYS },
      }),
      201,
    );
    experimentId = (await createExperiment(t(), admin)).id;
    const pin = { study_version_id: version.id };
    expectJson(await send(t(), admin, 'PUT', `/api/experiments/${experimentId}/study-version`, pin), 200);
    finished = await participantAt(t(), experimentId, 'completed', { baseline: 3 });
    leaving = await participantAt(t(), experimentId, 'confirm');
  });

  const get = async (path: string) => {
    const res = await send(t(), admin, 'GET', `/api/experiments/${experimentId}/${path}`);
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  it('writes participants.csv with the version’s answers under the spec’s columns and the pre keys', async () => {
    const csv = await get('export/participants.csv');
    const header = parseCsv(csv)[0] ?? [];
    const from = header.indexOf('entry_choice');
    expect(header.slice(from, header.indexOf('chat_turns'))).toEqual([
      'entry_choice',
      'baseline_intention',
      'children',
      'sleep_worry',
      'section_1_seconds',
      'section_1_min_met',
      'section_2_seconds',
      'section_2_min_met',
      'section_3_seconds',
      'section_3_min_met',
    ]);
    expect(header).not.toContain('age');
    const byUser = new Map(csvObjects(csv).map((r) => [r.user_id, r]));
    expect(byUser.get(finished.id)).toMatchObject({
      entry_choice: 'questions',
      baseline_intention: '3',
      children: '1',
      sleep_worry: '4',
      post_intent: '6',
      delta: '3',
      pathway: 'complete',
    });
    expect(byUser.get(leaving.id)).toMatchObject({
      entry_choice: 'confirm',
      baseline_intention: '',
      children: '',
      pathway: 'confirm',
    });
  });

  it('describes the version’s questions and keys in the codebook', async () => {
    const codebook = csvObjects(await get('export/codebook.csv'));
    const entry = (file: string, column: string) => codebook.find((e) => e.file === file && e.column === column);
    expect(entry('participants.csv', 'children')).toMatchObject({
      type: 'text',
      meaning: 'Pre-survey answer to “How many children under 5 live with you?”',
      allowed_values: '1; 2+',
    });
    expect(entry('participants.csv', 'sleep_worry')).toMatchObject({
      type: 'integer',
      meaning:
        'Pre-survey answer to “How much do you worry about your child’s sleep?” (1 Not at all, 4 Somewhat, 7 A great deal)',
      allowed_values: '1-7',
    });
    expect(entry('participants.csv', 'entry_choice')?.meaning).toContain(
      "in surveys.csv: question 'bedtime_plan', values 'unsure' and 'settled'",
    );
    expect(entry('participants.csv', 'post_intent')?.meaning).toContain(
      "in surveys.csv: question 'bedtime_intention_after'",
    );
    // The pathways in the study's words, the spec's where it names none; the values stay the three pathways.
    expect(entry('participants.csv', 'completion_pathway')).toMatchObject({
      meaning:
        "How the participant finished: 'complete' (whole study), 'confirm' (bedtime already settled), 'ceiling' (already certain to keep the plan); empty if not finished",
      allowed_values: 'complete; confirm; ceiling',
    });
    expect(entry('surveys.csv', 'question')?.allowed_values).toBe(
      'entry: bedtime_plan; baseline: bedtime_intention; pre: children, sleep_worry; post: bedtime_intention_after',
    );
  });

  it('writes the stored keys in surveys.csv', async () => {
    const rows = csvObjects(await get('export/surveys.csv')).filter((r) => r.user_id === finished.id);
    expect(rows.map((r) => [r.survey_type, r.question, r.value])).toEqual(
      expect.arrayContaining([
        ['entry', 'bedtime_plan', 'unsure'],
        ['baseline', 'bedtime_intention', '3'],
        ['pre', 'children', '1'],
        ['pre', 'sleep_worry', '4'],
        ['post', 'bedtime_intention_after', '6'],
      ]),
    );
  });

  it('puts the same columns in the package, with datapackage.json schemas from the version', async () => {
    const res = await send(t(), admin, 'GET', `/api/experiments/${experimentId}/export-package`);
    expect(res.statusCode).toBe(200);
    const files = Object.fromEntries(
      Object.entries(unzipSync(new Uint8Array(res.rawPayload))).map(([name, bytes]) => [name, strFromU8(bytes)]),
    );
    const row = csvObjects(files['participants.csv'] ?? '').find((r) => r.user_id === finished.id);
    expect(row).toMatchObject({ entry_choice: 'questions', baseline_intention: '3', children: '1', sleep_worry: '4' });
    expect(row?.post_intent).toBe('6');
    const descriptor = JSON.parse(files['datapackage.json'] ?? '') as {
      resources: { path: string; schema: { fields: Field[] } }[];
    };
    const fields = descriptor.resources.find((r) => r.path === 'participants.csv')?.schema.fields ?? [];
    const field = (name: string) => fields.find((f) => f.name === name);
    expect(field('children')).toMatchObject({ type: 'string', constraints: { enum: ['1', '2+'] } });
    expect(field('sleep_worry')).toMatchObject({ type: 'integer', constraints: { minimum: 1, maximum: 7 } });
    expect(field('age')).toBeUndefined();
  });

  it('takes the post answer only under the version’s post key', async () => {
    const user = await participantAt(t(), experimentId, 'chatted');
    const post = (responses: Record<string, number>) =>
      send(t(), user, 'POST', '/api/surveys', {
        user_id: user.id,
        experiment_id: experimentId,
        survey_type: 'post',
        responses,
      });
    const wrong = expectJson<{ error: string; code: string }>(await post({ post_intent: 6 }), 400);
    expect(wrong).toEqual({
      error: "The answers do not fit the study's questions: post_intent is not a question of this survey",
      code: 'VALIDATION_FAILED',
    });
    expect(expectJson(await post({ bedtime_intention_after: 5 }), 200)).toMatchObject({ created: true });
  });

  it('shows the baseline and post answers in the participants table', async () => {
    const rows = JSON.parse(await get('participants-detailed')) as DetailedParticipantRow[];
    expect(rows.find((r) => r.user_id === finished.id)).toMatchObject({ pre_intent: 3, post_intent: 6, delta: 3 });
  });

  it('keeps the pathways’ names for researchers: in the admin version, never in the participant view', async () => {
    const view = expectJson<Record<string, unknown>>(
      await send(t(), finished, 'GET', `/api/participants/study/${experimentId}`),
      200,
    );
    expect(view).not.toHaveProperty('pathways');
    expect(JSON.stringify(view)).not.toContain('bedtime already settled');
    const staffView = expectJson<Record<string, unknown>>(
      await send(t(), admin, 'GET', `/api/participants/study/${experimentId}`),
      200,
    );
    expect(staffView).not.toHaveProperty('pathways');
    const experiment = expectJson<{ study_version_id: string }>(
      await send(t(), admin, 'GET', `/api/experiments/${experimentId}`),
      200,
    );
    const version = expectJson<StudyVersion>(
      await send(t(), admin, 'GET', `/api/admin/study-versions/${experiment.study_version_id}`),
      200,
    );
    expect(version.definition.pathways).toEqual(SLEEP_PATHWAYS);
    // A participant cannot read the version.
    const refused = await send(t(), finished, 'GET', `/api/admin/study-versions/${experiment.study_version_id}`);
    expect(refused.statusCode).toBe(403);
  });
});

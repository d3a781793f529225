import { describe, expect, it } from 'vitest';
import { studyDefinition, type ParticipantStudy, type StudyVersion } from '@studychat/contracts';
import { createAndLogin, expectJson, useTestApp, type TestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { createExperiment, participantAt, send } from '../participants/journey.fixtures.js';
import { SwitchableModel } from '../../../test/chat.js';
import { DEFAULT_STUDY_VERSION_ID } from './study-source.js';
import { secondStudy } from './second-study.fixtures.js';

type ErrorBody = { error: string; code: string; issues?: { path: string; message: string }[] };

async function createVersion(t: TestApp, admin: TestUser, definition: unknown, label = 'Sleep v1') {
  return expectJson<StudyVersion>(
    await send(t, admin, 'POST', '/api/admin/study-versions', { label, definition }),
    201,
  );
}

describe.each(TEST_DIALECTS)('study version routes on %s', (dialect) => {
  const model = new SwitchableModel();
  const t = useTestApp(dialect, { deps: { llm: model } });

  it('seeds the built-in study as the default version and pins it to new experiments', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const experiment = await createExperiment(t(), admin);
    expect(experiment.study_version_id).toBe(DEFAULT_STUDY_VERSION_ID);
    const list = expectJson<StudyVersion[]>(await send(t(), admin, 'GET', '/api/admin/study-versions'), 200);
    expect(list.find((v) => v.id === DEFAULT_STUDY_VERSION_ID)).toMatchObject({
      is_default: true,
      study_id: 'mmr-well-visit',
    });
    const version = expectJson<StudyVersion>(
      await send(t(), admin, 'GET', `/api/admin/study-versions/${DEFAULT_STUDY_VERSION_ID}`),
      200,
    );
    expect(version.definition).toEqual(studyDefinition);
    const edit = expectJson<ErrorBody>(
      await send(t(), admin, 'PUT', `/api/admin/study-versions/${DEFAULT_STUDY_VERSION_ID}`, { label: 'Mine' }),
      409,
    );
    expect(edit.code).toBe('STUDY_VERSION_IN_USE');
  });

  it('refuses an invalid definition with every problem and its path, and writes nothing', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const before = expectJson<StudyVersion[]>(await send(t(), admin, 'GET', '/api/admin/study-versions'), 200);
    const bad = secondStudy();
    bad.conditions.mmr.sections = bad.conditions.mmr.sections.map((s, i) => (i === 0 ? { ...s, minSeconds: -1 } : s));
    bad.title = '';
    const body = expectJson<ErrorBody>(
      await send(t(), admin, 'POST', '/api/admin/study-versions', { label: 'Broken', definition: bad }),
      400,
    );
    expect(body.code).toBe('STUDY_INVALID');
    expect(body.issues?.map((i) => i.path)).toEqual(
      expect.arrayContaining(['conditions.mmr.sections.0.minSeconds', 'title']),
    );
    const after = expectJson<StudyVersion[]>(await send(t(), admin, 'GET', '/api/admin/study-versions'), 200);
    expect(after.length).toBe(before.length);
  });

  it('runs an experiment on its pinned version and stamps assignments, sections and messages with it', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const version = await createVersion(t(), admin, secondStudy());
    const experiment = await createExperiment(t(), admin);
    expectJson(
      await send(t(), admin, 'PUT', `/api/experiments/${experiment.id}/study-version`, {
        study_version_id: version.id,
      }),
      200,
    );
    const view = expectJson<ParticipantStudy>(
      await send(
        t(),
        await participantAt(t(), experiment.id, 'joined'),
        'GET',
        `/api/participants/study/${experiment.id}`,
      ),
      200,
    );
    expect(view.version_id).toBe(version.id);
    expect(view.baseline.question).toContain('regular bedtime');
    expect(view.pre.questions.map((q) => q.key)).toEqual(['children', 'sleep_worry']);
    expect(view.pages?.completion?.thanks).toBe('Thanks from the sleep study.');
    expect(view.entry).toMatchObject({ key: 'bedtime_plan', values: { continue: 'unsure', exit: 'settled' } });
    expect(view.conditions.mmr?.sections.map((s) => s.minSeconds)).toEqual([5, 10, 15]);

    model.reset();
    const user = await participantAt(t(), experiment.id, 'chatted');
    const db = t().database.db;
    // The answers are stored under the study's own keys and values; the MMR study's keys are refused here.
    const answers = await db
      .selectFrom('survey_responses')
      .select(['survey_type', 'responses'])
      .where('user_id', '=', user.id)
      .orderBy('created_at')
      .execute();
    expect(Object.fromEntries(answers.map((a) => [a.survey_type, JSON.parse(a.responses) as unknown]))).toEqual({
      entry: { bedtime_plan: 'unsure' },
      baseline: { bedtime_intention: '4' },
      pre: { children: '1', sleep_worry: '4' },
    });
    const joined = await participantAt(t(), experiment.id, 'consented');
    for (const [type, responses] of [
      ['entry', { choice: 'questions' }],
      ['entry', { bedtime_plan: 'questions' }],
    ] as const) {
      const refused = await send(t(), joined, 'POST', '/api/surveys', {
        user_id: joined.id,
        experiment_id: experiment.id,
        survey_type: type,
        responses,
      });
      expect(refused.statusCode).toBe(400);
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    // The declared exit value leaves at the no-concerns exit.
    const leaving = await participantAt(t(), experiment.id, 'confirm');
    const journey = expectJson<{ step: string; entryChoice: string }>(
      await send(t(), leaving, 'GET', `/api/participants/journey/${experiment.id}`),
      200,
    );
    expect(journey).toMatchObject({ step: 'confirm_exit', entryChoice: 'confirm' });
    const assignment = await db
      .selectFrom('assignments')
      .select(['id', 'study_version_id', 'assigned_condition'])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(assignment.study_version_id).toBe(version.id);
    const sections = await db
      .selectFrom('section_views')
      .select(['study_version_id', 'section_id', 'min_seconds'])
      .where('assignment_id', '=', assignment.id)
      .orderBy('section_index')
      .execute();
    const expected = secondStudy().conditions[assignment.assigned_condition as 'mmr' | 'control'].sections;
    expect(sections.map((s) => [s.section_id, s.min_seconds, s.study_version_id])).toEqual(
      expected.map((s) => [s.id, s.minSeconds, version.id]),
    );
    const messages = await db
      .selectFrom('chat_messages')
      .innerJoin('chat_threads', 'chat_threads.id', 'chat_messages.thread_id')
      .select(['chat_messages.study_version_id', 'chat_messages.content', 'chat_messages.role'])
      .where('chat_threads.user_id', '=', user.id)
      .orderBy('chat_messages.position')
      .execute();
    expect(messages.length).toBeGreaterThan(2);
    expect(messages.every((m) => m.study_version_id === version.id)).toBe(true);
    // The condition's chat model settings reach the model (the mmr condition sets them, control does not).
    const seen = new Set<string>();
    for (let i = 0; i < 10 && seen.size < 2; i += 1) {
      const condition = i === 0 ? assignment.assigned_condition : null;
      if (i > 0) model.reset();
      const other = i === 0 ? user : await participantAt(t(), experiment.id, 'chatted');
      const row = await db
        .selectFrom('assignments')
        .select('assigned_condition')
        .where('user_id', '=', other.id)
        .executeTakeFirstOrThrow();
      const assigned = condition ?? row.assigned_condition;
      expect(model.calls.length).toBeGreaterThan(1);
      for (const call of model.calls) {
        if (assigned === 'mmr') {
          expect(call).toMatchObject({
            model: 'claude-haiku-4-5',
            temperature: 0.3,
            maxTokens: 300,
            thinkingBudget: 0,
          });
        } else {
          expect(call).not.toHaveProperty('model');
          expect(call).not.toHaveProperty('temperature');
          expect(call.maxTokens).toBe(1024);
        }
      }
      seen.add(String(assigned));
    }
    expect(seen).toEqual(new Set(['mmr', 'control']));
    if (assignment.assigned_condition === 'mmr') {
      expect(messages[0]?.content).toBe('Hello! Ask me anything about your child’s sleep.');
    }

    // The version is now in use: it cannot change and the experiment cannot switch versions.
    const edit = expectJson<ErrorBody>(
      await send(t(), admin, 'PUT', `/api/admin/study-versions/${version.id}`, { label: 'Renamed' }),
      409,
    );
    expect(edit.code).toBe('STUDY_VERSION_IN_USE');
    const definitionEdit = expectJson<ErrorBody>(
      await send(t(), admin, 'PUT', `/api/admin/study-versions/${version.id}`, { definition: studyDefinition }),
      409,
    );
    expect(definitionEdit.code).toBe('STUDY_VERSION_IN_USE');
    const repin = expectJson<ErrorBody>(
      await send(t(), admin, 'PUT', `/api/experiments/${experiment.id}/study-version`, {
        study_version_id: DEFAULT_STUDY_VERSION_ID,
      }),
      409,
    );
    expect(repin.code).toBe('EXPERIMENT_HAS_PARTICIPANTS');
    const stored = expectJson<StudyVersion>(
      await send(t(), admin, 'GET', `/api/admin/study-versions/${version.id}`),
      200,
    );
    expect(stored).toMatchObject({ label: 'Sleep v1', locked: true, experiments: 1 });
    expect(stored.definition).toEqual(secondStudy());

    // A clone is a new, editable draft.
    const clone = expectJson<StudyVersion>(
      await send(t(), admin, 'POST', `/api/admin/study-versions/${version.id}/clone`, {}),
      201,
    );
    expect(clone).toMatchObject({ label: 'Sleep v1 (copy)', parent_id: version.id, locked: false, experiments: 0 });
    const edited = secondStudy();
    edited.title = 'Sleep study, revised';
    const updated = expectJson<StudyVersion>(
      await send(t(), admin, 'PUT', `/api/admin/study-versions/${clone.id}`, { label: 'Sleep v2', definition: edited }),
      200,
    );
    expect(updated).toMatchObject({ label: 'Sleep v2', title: 'Sleep study, revised' });
  });

  it('reads a version stored before the answer keys and the pre-survey were data as the MMR study ran it', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const version = await createVersion(t(), admin, structuredClone(studyDefinition), 'Stored long ago');
    // The stored JSON of an existing database's version: no entry key or values, no baseline key, no pre.
    const old = structuredClone(studyDefinition) as unknown as Record<string, Record<string, unknown>>;
    delete old.entry?.key;
    delete old.entry?.values;
    delete old.baseline?.key;
    delete old.pre;
    delete old.post?.key;
    await t()
      .database.db.updateTable('study_versions')
      .set({ definition: JSON.stringify(old) })
      .where('id', '=', version.id)
      .execute();
    const experiment = expectJson<{ id: string }>(
      await send(t(), admin, 'POST', '/api/experiments', { name: 'Old shape', study_version_id: version.id }),
      201,
    );
    const read = expectJson<StudyVersion>(
      await send(t(), admin, 'GET', `/api/admin/study-versions/${version.id}`),
      200,
    );
    expect(read.definition).toEqual(studyDefinition);
    const user = await participantAt(t(), experiment.id, 'pre', { baseline: 3 });
    const view = expectJson<ParticipantStudy>(
      await send(t(), user, 'GET', `/api/participants/study/${experiment.id}`),
      200,
    );
    expect(view.pre).toEqual(studyDefinition.pre);
    expect(view.entry).toMatchObject({ key: 'choice', values: { continue: 'questions', exit: 'confirm' } });
    const journey = expectJson<{ step: string; baselineIntention: number }>(
      await send(t(), user, 'GET', `/api/participants/journey/${experiment.id}`),
      200,
    );
    expect(journey).toMatchObject({ step: 'assignment', baselineIntention: 3 });
  });

  it('never sends a system prompt or scripted reply in the participant view', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const version = await createVersion(t(), admin, secondStudy(), 'Prompt check');
    for (const versionId of [version.id, DEFAULT_STUDY_VERSION_ID]) {
      const experiment = expectJson<{ id: string }>(
        await send(t(), admin, 'POST', '/api/experiments', { name: 'View', study_version_id: versionId }),
        201,
      );
      const definition = versionId === version.id ? secondStudy() : studyDefinition;
      const reply = await send(
        t(),
        await participantAt(t(), experiment.id, 'joined'),
        'GET',
        `/api/participants/study/${experiment.id}`,
      );
      expect(reply.statusCode).toBe(200);
      for (const chat of Object.values(definition.chat.conditions)) {
        expect(reply.body).not.toContain(JSON.stringify(chat.systemPrompt).slice(1, 60));
        for (const text of chat.scripted.replies) expect(reply.body).not.toContain(JSON.stringify(text).slice(1, 60));
      }
      expect(reply.body).not.toMatch(/systemPrompt|scripted|SECRET|settings|claude-haiku|temperature/);
      expect(reply.body).toContain(JSON.stringify(definition.chat.fallbackGreetings.mmr).slice(1, 40));
    }
  });

  it('guards the routes: staff read, admins write, participants only read the participant view', async () => {
    const participant = await createAndLogin(t());
    expect((await send(t(), participant, 'GET', '/api/admin/study-versions')).statusCode).toBe(403);
    expect(
      (await send(t(), participant, 'POST', '/api/admin/study-versions', { label: 'x', definition: studyDefinition }))
        .statusCode,
    ).toBe(403);
    expect((await send(t(), undefined, 'GET', `/api/participants/study/${DEFAULT_STUDY_VERSION_ID}`)).statusCode).toBe(
      401,
    );
    const missing = await send(t(), participant, 'GET', `/api/participants/study/${DEFAULT_STUDY_VERSION_ID}`);
    expect(missing.statusCode).toBe(404);
    // A participant reads only the study of an experiment they joined; staff read any.
    const admin = await createAndLogin(t(), { isAdmin: true });
    const experiment = await createExperiment(t(), admin);
    const other = await createExperiment(t(), admin);
    const joined = await participantAt(t(), experiment.id, 'joined');
    expect((await send(t(), joined, 'GET', `/api/participants/study/${experiment.id}`)).statusCode).toBe(200);
    const elsewhere = await send(t(), joined, 'GET', `/api/participants/study/${other.id}`);
    expect(elsewhere.statusCode).toBe(404);
    expect(JSON.parse(elsewhere.body)).toMatchObject({ code: expect.any(String) });
    expect((await send(t(), admin, 'GET', `/api/participants/study/${other.id}`)).statusCode).toBe(200);
  });
});

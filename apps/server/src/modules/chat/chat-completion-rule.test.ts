import { studyDefinition, type ParticipantStudy, type StudyDefinition, type StudyVersion } from '@studychat/contracts';
import { describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, useTestApp, type TestApp, type TestUser } from '../../../test/app.js';
import { SwitchableModel } from '../../../test/chat.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { dataOf, eventsOf } from '../journey/journey.testing.js';
import { csvObjects } from '../analytics/parse-csv.testing.js';
import { chatRounds, createExperiment, participantAt, send, surveyBody } from '../participants/journey.fixtures.js';

// The chat's completion rule as study data (docs/decisions/0049): a study that asks for one round lets the
// participant proceed after one; the MMR study (no rule of its own) still needs the spec's 3 rounds and 100 points.

/** The MMR study with a one-round, 10-point rule in both conditions (the condition is drawn at random). */
function oneRoundStudy(): StudyDefinition {
  const study = structuredClone(studyDefinition);
  study.id = 'one-round';
  study.chat.completion = { mmr: { rounds: 1, points: 10 }, control: { rounds: 1, points: 10 } };
  return study;
}

async function experimentOn(t: TestApp, definition: StudyDefinition | null): Promise<string> {
  const admin = await adminOf(t);
  const experiment = await createExperiment(t, admin);
  if (definition) {
    const version = expectJson<StudyVersion>(
      await send(t, admin, 'POST', '/api/admin/study-versions', { label: 'One round', definition }),
      201,
    );
    const pin = { study_version_id: version.id };
    expectJson(await send(t, admin, 'PUT', `/api/experiments/${experiment.id}/study-version`, pin), 200);
  }
  return experiment.id;
}

const admins = new WeakMap<TestApp, TestUser>();
/** One admin per test app. */
async function adminOf(t: TestApp): Promise<TestUser> {
  const known = admins.get(t);
  if (known) return known;
  const admin = await createAndLogin(t, { isAdmin: true });
  admins.set(t, admin);
  return admin;
}

/** participants.csv's chat columns of the user, as exported. */
async function exportedChat(t: TestApp, experimentId: string, userId: string) {
  const res = await send(t, await adminOf(t), 'GET', `/api/experiments/${experimentId}/export/participants.csv`);
  expect(res.statusCode).toBe(200);
  const row = csvObjects(res.body).find((r) => r.user_id === userId);
  return { turns: row?.chat_turns, complete: row?.chat_complete };
}

describe.each(TEST_DIALECTS)("a study's own chat completion rule on %s", (dialect) => {
  const t = useTestApp(dialect, { deps: { llm: new SwitchableModel() } });

  const journeyOf = async (user: TestUser, experimentId: string) =>
    expectJson<{ step: string }>(await send(t(), user, 'GET', `/api/participants/journey/${experimentId}`), 200);
  const progressOf = async (user: TestUser, threadId: string) =>
    expectJson<{ progress: unknown }>(await send(t(), user, 'GET', `/api/chat/threads/${threadId}/messages`), 200)
      .progress;
  const postSurvey = (user: TestUser, experimentId: string) =>
    send(t(), user, 'POST', '/api/surveys', surveyBody(user.id, experimentId, 'post', { post_intent: 6 }));

  it('lets the participant proceed after one round when the study asks for one, and completes the study', async () => {
    const experimentId = await experimentOn(t(), oneRoundStudy());
    const user = await participantAt(t(), experimentId, 'sections');
    const threadId = await chatRounds(t(), user, experimentId, ['Hi']);

    expect(await progressOf(user, threadId)).toEqual({ rounds: 1, chars: 2, points: 11, complete: true, closed: null });
    expect((await journeyOf(user, experimentId)).step).toBe('post_survey');
    const complete = (await eventsOf(t(), user, experimentId)).filter((e) => e.type === 'chat_complete');
    expect(complete).toHaveLength(1);
    expect(dataOf(complete[0])).toEqual({ threadId, rounds: 1, points: 11 });

    expect((await postSurvey(user, experimentId)).statusCode).toBe(200);
    const done = await send(t(), user, 'POST', '/api/participants/completion', { experimentId, pathway: 'complete' });
    expect(done.statusCode).toBe(200);
    expect((await journeyOf(user, experimentId)).step).toBe('completed');
    // The export applies the same rule.
    expect(await exportedChat(t(), experimentId, user.id)).toEqual({ turns: '1', complete: 'TRUE' });
  });

  it('a limit that ends a chat already complete by the study rule logs no second chat_complete', async () => {
    const experimentId = await experimentOn(t(), oneRoundStudy());
    const limits = { overrides: { maxMessages: 1 } };
    expectJson(await send(t(), await adminOf(t()), 'PUT', `/api/experiments/${experimentId}/chat-limits`, limits), 200);
    const user = await participantAt(t(), experimentId, 'sections');
    const threadId = await chatRounds(t(), user, experimentId, ['Hi']);

    expect(await progressOf(user, threadId)).toMatchObject({ complete: true, closed: { reason: 'message_limit' } });
    const complete = (await eventsOf(t(), user, experimentId)).filter((e) => e.type === 'chat_complete');
    expect(complete.map(dataOf)).toEqual([{ threadId, rounds: 1, points: 11 }]);
  });

  it('still needs the spec rule (3 rounds, 100 points) in the MMR study, which sets none', async () => {
    const experimentId = await experimentOn(t(), null);
    const user = await participantAt(t(), experimentId, 'sections');
    const threadId = await chatRounds(t(), user, experimentId, ['Hi']);

    expect(await progressOf(user, threadId)).toEqual({
      rounds: 1,
      chars: 2,
      points: 11,
      complete: false,
      closed: null,
    });
    expect((await journeyOf(user, experimentId)).step).toBe('chat');
    expect((await eventsOf(t(), user, experimentId)).some((e) => e.type === 'chat_complete')).toBe(false);
    const early = await postSurvey(user, experimentId);
    expect(early.statusCode).toBe(409);
    expect(JSON.parse(early.body)).toMatchObject({ code: 'STEP_OUT_OF_ORDER', step: 'chat' });
    const skipped = await send(t(), user, 'POST', '/api/participants/completion', {
      experimentId,
      pathway: 'complete',
    });
    expect(skipped.statusCode).toBe(409);
  });

  it('refuses a rule out of bounds with the problems and their paths (400 STUDY_INVALID), storing nothing', async () => {
    const admin = await adminOf(t());
    const bad = oneRoundStudy() as unknown as { chat: { completion: unknown } };
    bad.chat.completion = { control: { rounds: 0, points: 20_000 } };
    const res = await send(t(), admin, 'POST', '/api/admin/study-versions', { label: 'Bad rule', definition: bad });
    expect(expectJson<{ code: string; issues: unknown }>(res, 400)).toMatchObject({
      code: 'STUDY_INVALID',
      issues: [
        { path: 'chat.completion.control.rounds', message: 'must be 1 to 100' },
        { path: 'chat.completion.control.points', message: 'must be 0 to 10000' },
      ],
    });
    const labels = expectJson<StudyVersion[]>(await send(t(), admin, 'GET', '/api/admin/study-versions'), 200);
    expect(labels.map((v) => v.label)).not.toContain('Bad rule');
  });

  it("gives the rule to the participant's browser with the study, but not the prompts", async () => {
    const experimentId = await experimentOn(t(), oneRoundStudy());
    const user = await participantAt(t(), experimentId, 'joined');
    const view = expectJson<ParticipantStudy>(
      await send(t(), user, 'GET', `/api/participants/study/${experimentId}`),
      200,
    );
    expect(view.chat).toEqual({
      fallbackGreetings: studyDefinition.chat.fallbackGreetings,
      completion: { mmr: { rounds: 1, points: 10 }, control: { rounds: 1, points: 10 } },
    });
  });
});

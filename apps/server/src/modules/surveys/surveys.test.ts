import { describe, expect, it } from 'vitest';
import type { Journey } from '@studychat/contracts';
import { createAndLogin, expectJson, useTestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { NO_PARTICIPATION } from '../journey/journey-errors.js';
import {
  chatRounds,
  createExperiment,
  participantAt,
  readAllSections,
  send,
} from '../participants/journey.fixtures.js';

type ErrorBody = { error: string; code: string };
type SurveyReply = { id: string; created: boolean; journey?: Journey };

describe.each(TEST_DIALECTS)('survey submission on %s', (dialect) => {
  const t = useTestApp(dialect);

  async function setup() {
    const admin = await createAndLogin(t(), { isAdmin: true });
    return { admin, experimentId: (await createExperiment(t(), admin)).id };
  }

  const submit = (user: TestUser, experimentId: string, survey_type: unknown, responses: unknown, userId = user.id) =>
    send(t(), user, 'POST', '/api/surveys', {
      user_id: userId,
      experiment_id: experimentId,
      prolific_pid: 'PID-S',
      survey_type,
      responses,
    });

  async function storedResponses(userId: string, experimentId: string) {
    return t()
      .database.db.selectFrom('survey_responses')
      .selectAll()
      .where('user_id', '=', userId)
      .where('experiment_id', '=', experimentId)
      .execute();
  }

  it('stores each survey type in the flow order with the response shapes of the spec and the assignment Prolific id', async () => {
    const { experimentId } = await setup();
    const user = await participantAt(t(), experimentId, 'consented', { pid: 'PID-FROM-LANDING' });
    const replies = [
      await submit(user, experimentId, 'entry', { choice: 'questions' }),
      await submit(user, experimentId, 'baseline', { vaccination_intention: '3' }),
      await submit(user, experimentId, 'pre', { age: '65+', sex: 'prefer-not', political_leaning: 'liberal' }),
    ].map((res) => expectJson<SurveyReply>(res, 200));
    const id = expect.stringMatching(/^[0-9a-f-]{36}$/);
    // The entry and baseline answers lead to the next page: their replies carry the journey (decision 0068).
    expect(replies).toEqual([
      { id, created: true, journey: expect.objectContaining({ step: 'baseline' }) },
      { id, created: true, journey: expect.objectContaining({ step: 'pre_survey' }) },
      { id, created: true },
    ]);
    expectJson(await send(t(), user, 'POST', '/api/participants/assign-condition', { experimentId }), 200);
    await readAllSections(t(), user, experimentId);
    await chatRounds(t(), user, experimentId);
    expect(expectJson<SurveyReply>(await submit(user, experimentId, 'post', { post_intent: 7 }), 200).created).toBe(
      true,
    );

    const rows = await storedResponses(user.id, experimentId);
    const byType = Object.fromEntries(rows.map((r) => [r.survey_type, JSON.parse(r.responses)]));
    expect(byType).toEqual({
      entry: { choice: 'questions' },
      baseline: { vaccination_intention: '3' },
      pre: { age: '65+', sex: 'prefer-not', political_leaning: 'liberal' },
      post: { post_intent: 7 },
    });
    // The body said PID-S: the stored id is the assignment's, never the body's.
    expect(rows.map((r) => r.prolific_pid)).toEqual([
      'PID-FROM-LANDING',
      'PID-FROM-LANDING',
      'PID-FROM-LANDING',
      'PID-FROM-LANDING',
    ]);
  });

  it('keeps the first response: a repeat returns its id with created false and changes nothing', async () => {
    const { experimentId } = await setup();
    const user = await participantAt(t(), experimentId, 'consented');
    const first = expectJson<SurveyReply>(await submit(user, experimentId, 'entry', { choice: 'questions' }), 200);
    const repeat = expectJson<SurveyReply>(await submit(user, experimentId, 'entry', { choice: 'confirm' }), 200);
    expect(repeat).toEqual({ id: first.id, created: false, journey: first.journey });
    // The journey an answer's reply carries is the one the journey read gives right after it (decision 0068).
    const read = await send(t(), user, 'GET', `/api/participants/journey/${experimentId}`);
    expect(first.journey).toEqual(expectJson<Journey>(read, 200));
    const rows = await storedResponses(user.id, experimentId);
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]?.responses ?? '{}')).toEqual({ choice: 'questions' });
  });

  it('logs a repeat with a different answer as an event (the first stays), and a same-answer repeat not at all', async () => {
    const { experimentId } = await setup();
    const user = await participantAt(t(), experimentId, 'consented');
    await submit(user, experimentId, 'entry', { choice: 'questions' });
    await submit(user, experimentId, 'entry', { choice: 'questions' });
    await submit(user, experimentId, 'entry', { choice: 'confirm' });
    const events = await t()
      .database.db.selectFrom('journey_events')
      .where('user_id', '=', user.id)
      .where('type', '=', 'answer_change_refused')
      .select(['step', 'data'])
      .execute();
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]?.data ?? '{}')).toEqual({
      surveyType: 'entry',
      first: { choice: 'questions' },
      attempted: { choice: 'confirm' },
    });
    const rows = await storedResponses(user.id, experimentId);
    expect(JSON.parse(rows[0]?.responses ?? '{}')).toEqual({ choice: 'questions' });
  });

  it('stores one response when the same survey arrives twice at once', async () => {
    const { experimentId } = await setup();
    const user = await participantAt(t(), experimentId, 'consented');
    const replies = await Promise.all(
      Array.from({ length: 5 }, () => submit(user, experimentId, 'entry', { choice: 'questions' })),
    );
    const bodies = replies.map((res) => expectJson<SurveyReply>(res, 200));
    expect(new Set(bodies.map((b) => b.id)).size).toBe(1);
    expect(bodies.filter((b) => b.created)).toHaveLength(1);
    expect(await storedResponses(user.id, experimentId)).toHaveLength(1);
  });

  it('refuses invalid payloads, unknown types and out-of-range values with 400, storing nothing', async () => {
    const { experimentId } = await setup();
    const user = await participantAt(t(), experimentId, 'pre', { baseline: 2 });
    const before = (await storedResponses(user.id, experimentId)).length;
    const bad: [unknown, unknown][] = [
      ['exit', { choice: 'confirm' }],
      [undefined, { choice: 'confirm' }],
      ['entry', { choice: 'maybe' }],
      ['entry', { choice: 'confirm', extra: 1 }],
      ['entry', {}],
      ['baseline', { vaccination_intention: '0' }],
      ['baseline', { vaccination_intention: '8' }],
      ['baseline', { vaccination_intention: 4 }],
      ['pre', { age: '17', sex: 'female', political_leaning: 'moderate' }],
      ['pre', { age: '25-34', sex: 'female' }],
      ['post', { post_intent: 0 }],
      ['post', { post_intent: 8 }],
      ['post', { post_intent: 3.5 }],
      ['post', { post_intent: '5' }],
      ['post', 'not an object'],
    ];
    for (const [type, responses] of bad) {
      const body = expectJson<ErrorBody>(await submit(user, experimentId, type, responses), 400);
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(body.error.length).toBeGreaterThan(0);
    }
    const malformed = await send(t(), user, 'POST', '/api/surveys', {
      user_id: 'x',
      experiment_id: experimentId,
      survey_type: 'entry',
      responses: { choice: 'confirm' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(await storedResponses(user.id, experimentId)).toHaveLength(before);
  });

  it('refuses a survey for another participant with 403 and an unknown experiment with 404', async () => {
    const { admin, experimentId } = await setup();
    const alice = await participantAt(t(), experimentId, 'consented');
    const bob = await participantAt(t(), experimentId, 'consented');
    const forged = await submit(bob, experimentId, 'entry', { choice: 'confirm' }, alice.id);
    expect(expectJson<ErrorBody>(forged, 403).code).toBe('FORBIDDEN');
    expect(await storedResponses(alice.id, experimentId)).toHaveLength(0);
    const nowhere = '00000000-0000-4000-8000-000000000000';
    const unknown = await submit(alice, nowhere, 'entry', { choice: 'confirm' });
    expect(expectJson<ErrorBody>(unknown, 404).error).toBe('Experiment not found');
    // Answers that fit no study's questions: still 404 for an experiment that does not exist.
    const unfit = await submit(alice, nowhere, 'entry', { nothing: 'here' });
    expect(expectJson<ErrorBody>(unfit, 404).error).toBe('Experiment not found');
    // An admin may not answer for a participant either (docs/decisions/0074).
    const forAlice = await submit(admin, experimentId, 'entry', { choice: 'questions' }, alice.id);
    expect(expectJson<ErrorBody>(forAlice, 403).code).toBe('FORBIDDEN');
    expect(await storedResponses(alice.id, experimentId)).toHaveLength(0);
  });

  it('refuses a survey out of its step with 409 STEP_OUT_OF_ORDER naming the step, storing nothing', async () => {
    const { experimentId } = await setup();
    const pre = { age: '25-34', sex: 'male', political_leaning: 'moderate' };
    const refused = async (user: TestUser, type: string, responses: unknown, step: string, where: RegExp) => {
      const before = await storedResponses(user.id, experimentId);
      const body = expectJson<ErrorBody & { step: string }>(await submit(user, experimentId, type, responses), 409);
      expect(body).toMatchObject({ code: 'STEP_OUT_OF_ORDER', step });
      expect(body.error).toMatch(where);
      expect(await storedResponses(user.id, experimentId)).toEqual(before);
    };
    const joined = await participantAt(t(), experimentId, 'joined');
    await refused(joined, 'entry', { choice: 'confirm' }, 'consent', /not given your consent/);

    const stranger = await createAndLogin(t());
    const notJoined = expectJson<ErrorBody>(await submit(stranger, experimentId, 'entry', { choice: 'confirm' }), 404);
    expect(notJoined.error).toBe(NO_PARTICIPATION);

    const confirmed = await participantAt(t(), experimentId, 'confirm');
    await refused(confirmed, 'baseline', { vaccination_intention: '4' }, 'confirm_exit', /only your completion code/);
    await refused(confirmed, 'pre', pre, 'confirm_exit', /only your completion code/);

    const ceiling = await participantAt(t(), experimentId, 'baseline', { baseline: 7 });
    await refused(ceiling, 'pre', pre, 'ceiling_exit', /only your completion code/);

    const answered = await participantAt(t(), experimentId, 'pre');
    await refused(answered, 'post', { post_intent: 5 }, 'assignment', /about to be assigned/);
    const assigned = await participantAt(t(), experimentId, 'assigned');
    await refused(assigned, 'post', { post_intent: 5 }, 'sections', /reading section 1 of 4/);
    const read = await participantAt(t(), experimentId, 'sections');
    await refused(read, 'post', { post_intent: 5 }, 'chat', /chat with the AI assistant/);
  });

  it('keeps the server order after a lost write: the next survey waits until the missing one is stored', async () => {
    const { experimentId } = await setup();
    // The entry write was lost: the participant is still at the entry step, so the baseline is refused.
    const noEntry = await participantAt(t(), experimentId, 'consented');
    const early = await submit(noEntry, experimentId, 'baseline', { vaccination_intention: '2' });
    expect(expectJson<{ step: string }>(early, 409).step).toBe('entry');
    expectJson(await submit(noEntry, experimentId, 'entry', { choice: 'questions' }), 200);
    expectJson(await submit(noEntry, experimentId, 'baseline', { vaccination_intention: '2' }), 200);

    // A repeat of an earlier survey with another answer keeps the first: 4 stays 4, no ceiling exit.
    const four = await participantAt(t(), experimentId, 'baseline', { baseline: 4 });
    const seven = expectJson<SurveyReply>(
      await submit(four, experimentId, 'baseline', { vaccination_intention: '7' }),
      200,
    );
    expect(seven.created).toBe(false);
    const ceiling = await send(t(), four, 'POST', '/api/participants/completion', { experimentId, pathway: 'ceiling' });
    expect(expectJson<{ step: string }>(ceiling, 409).step).toBe('pre_survey');
    expectJson(
      await submit(four, experimentId, 'pre', { age: '35-44', sex: 'female', political_leaning: 'liberal' }),
      200,
    );
  });
});

import { describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, useTestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { createExperiment, participantAt, send } from '../participants/journey.fixtures.js';

type ErrorBody = { error: string; code: string };
type SurveyReply = { id: string; created: boolean };

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

  it('stores each survey type in the flow order with the response shapes of the spec', async () => {
    const { experimentId } = await setup();
    const user = await participantAt(t(), experimentId, 'consented');
    const replies = [
      await submit(user, experimentId, 'entry', { choice: 'questions' }),
      await submit(user, experimentId, 'baseline', { vaccination_intention: '3' }),
      await submit(user, experimentId, 'pre', { age: '65+', sex: 'prefer-not', political_leaning: 'liberal' }),
    ].map((res) => expectJson<SurveyReply>(res, 200));
    for (const reply of replies) expect(reply).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), created: true });
    expectJson(await send(t(), user, 'POST', '/api/participants/assign-condition', { experimentId }), 200);
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
    expect(rows.every((r) => r.prolific_pid === 'PID-S')).toBe(true);
  });

  it('keeps the first response: a repeat returns its id with created false and changes nothing', async () => {
    const { experimentId } = await setup();
    const user = await participantAt(t(), experimentId, 'consented');
    const first = expectJson<SurveyReply>(await submit(user, experimentId, 'entry', { choice: 'questions' }), 200);
    const repeat = expectJson<SurveyReply>(await submit(user, experimentId, 'entry', { choice: 'confirm' }), 200);
    expect(repeat).toEqual({ id: first.id, created: false });
    const rows = await storedResponses(user.id, experimentId);
    expect(rows).toHaveLength(1);
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
    const unknown = await submit(alice, '00000000-0000-4000-8000-000000000000', 'entry', { choice: 'confirm' });
    expect(unknown.statusCode).toBe(404);
    // An admin may record on a participant's behalf.
    expectJson(await submit(admin, experimentId, 'entry', { choice: 'questions' }, alice.id), 200);
  });

  it('refuses surveys that contradict earlier answers or come before consent or a condition, with clear 409s', async () => {
    const { experimentId } = await setup();
    const pre = { age: '25-34', sex: 'male', political_leaning: 'moderate' };
    const joined = await participantAt(t(), experimentId, 'joined');
    const noConsent = expectJson<ErrorBody>(await submit(joined, experimentId, 'entry', { choice: 'confirm' }), 409);
    expect(noConsent.error).toMatch(/consent/);

    const stranger = await createAndLogin(t());
    expect((await submit(stranger, experimentId, 'entry', { choice: 'confirm' })).statusCode).toBe(404);

    const confirmed = await participantAt(t(), experimentId, 'confirm');
    const baselineAfterConfirm = expectJson<ErrorBody>(
      await submit(confirmed, experimentId, 'baseline', { vaccination_intention: '4' }),
      409,
    );
    expect(baselineAfterConfirm.error).toMatch(/only for participants who said they have questions/);
    expect((await submit(confirmed, experimentId, 'pre', pre)).statusCode).toBe(409);

    const ceiling = await participantAt(t(), experimentId, 'baseline', { baseline: 7 });
    const preAtCeiling = expectJson<ErrorBody>(await submit(ceiling, experimentId, 'pre', pre), 409);
    expect(preAtCeiling.error).toMatch(/intention of 7/);

    const answered = await participantAt(t(), experimentId, 'pre');
    const postTooEarly = expectJson<ErrorBody>(await submit(answered, experimentId, 'post', { post_intent: 5 }), 409);
    expect(postTooEarly.code).toBe('NO_CONDITION');
    expect(await storedResponses(answered.id, experimentId)).toHaveLength(3);
  });

  it('tolerates a lost entry or baseline write, as the flow continues past them, but not a later contradiction', async () => {
    const { experimentId } = await setup();
    const pre = { age: '35-44', sex: 'female', political_leaning: 'liberal' };
    // The entry write was lost: the baseline is still accepted.
    const noEntry = await participantAt(t(), experimentId, 'consented');
    expectJson(await submit(noEntry, experimentId, 'baseline', { vaccination_intention: '2' }), 200);

    // The baseline write was lost: the pre-survey is accepted, the page repeats the baseline, randomisation works.
    const noBaseline = await participantAt(t(), experimentId, 'questions');
    expectJson(await submit(noBaseline, experimentId, 'pre', pre), 200);
    const before = await send(t(), noBaseline, 'POST', '/api/participants/assign-condition', { experimentId });
    expect(expectJson<ErrorBody>(before, 409).error).toMatch(/answer the intention question/);
    const ceilingLater = await submit(noBaseline, experimentId, 'baseline', { vaccination_intention: '7' });
    expect(expectJson<ErrorBody>(ceilingLater, 409).error).toMatch(/already been submitted/);
    expectJson(await submit(noBaseline, experimentId, 'baseline', { vaccination_intention: '5' }), 200);
    const assigned = await send(t(), noBaseline, 'POST', '/api/participants/assign-condition', { experimentId });
    expect(expectJson<{ stratum: string }>(assigned, 200).stratum).toBe('5-6');

    // An entry choice of 'confirm' cannot follow an intention answer.
    const late = expectJson<ErrorBody>(await submit(noEntry, experimentId, 'entry', { choice: 'confirm' }), 409);
    expect(late.error).toMatch(/cannot change/);
    expectJson(await submit(noEntry, experimentId, 'entry', { choice: 'questions' }), 200);
  });
});

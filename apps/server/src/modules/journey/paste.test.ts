import { describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, useTestApp, type TestUser } from '../../../test/app.js';
import { chatClient } from '../../../test/chat.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { at, buildAssignment, buildExperiment } from '../../../test/factories.js';
import { csvObjects } from '../analytics/parse-csv.testing.js';
import { MAX_LOGGED_PASTES } from '../journey/paste.service.js';

// Blocked pastes in the chat box are recorded as `paste_blocked` journey events with the length only
// (docs/decisions/0028); participants.csv counts them.

describe.each(TEST_DIALECTS)('blocked pastes on %s', (dialect) => {
  const t = useTestApp(dialect);
  const { participant, initiate, joinExperiment } = chatClient(t);

  /** A participant whose chat has started (the box is on screen). */
  async function chatting() {
    const p = await participant();
    expectJson(await initiate(p.user, p.experimentId), 200);
    return p;
  }

  const paste = (user: TestUser, experimentId: string, length: unknown = 120) =>
    t().app.inject({
      method: 'POST',
      url: '/api/chat/paste-blocked',
      headers: user.headers,
      payload: { experimentId, length },
    });
  const pasteEvents = (userId: string, experimentId: string) =>
    t()
      .database.db.selectFrom('journey_events')
      .where('experiment_id', '=', experimentId)
      .where('user_id', '=', userId)
      .where('type', '=', 'paste_blocked')
      .select(['step', 'data'])
      .orderBy('seq')
      .execute();

  it('records the length of a blocked paste at the chat step, never any text', async () => {
    const { user, experimentId } = await chatting();
    expect(expectJson(await paste(user, experimentId, 120), 200)).toEqual({ recorded: true });
    expect(expectJson(await paste(user, experimentId, 0), 200)).toEqual({ recorded: true });
    expect(await pasteEvents(user.id, experimentId)).toEqual([
      { step: 'chat', data: '{"length":120}' },
      { step: 'chat', data: '{"length":0}' },
    ]);
  });

  it('refuses text, a negative, fractional or missing length and extra fields (400), writing nothing', async () => {
    const { user, experimentId } = await chatting();
    for (const length of ['secret text', -1, 1.5, null]) {
      expect(expectJson<{ code: string }>(await paste(user, experimentId, length), 400).code).toBe('VALIDATION_FAILED');
    }
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/chat/paste-blocked',
      headers: user.headers,
      payload: { experimentId, length: 3, text: 'pasted words' },
    });
    expect(expectJson<{ code: string }>(res, 400).code).toBe('VALIDATION_FAILED');
    expect(await pasteEvents(user.id, experimentId)).toEqual([]);
  });

  it('is out of order before the chat started (409 naming the step) and 404 for someone not in the experiment', async () => {
    const { user, experimentId } = await participant(null);
    const early = expectJson<{ code: string; step: string }>(await paste(user, experimentId), 409);
    expect(early).toMatchObject({ code: 'STEP_OUT_OF_ORDER' });
    expect(early.step).not.toBe('chat');
    expect(await pasteEvents(user.id, experimentId)).toEqual([]);
    // At the chat step, but the conversation (and so the message box) has not started yet.
    const waiting = await participant();
    const notStarted = expectJson<{ code: string; step: string }>(await paste(waiting.user, waiting.experimentId), 409);
    expect(notStarted).toMatchObject({ code: 'STEP_OUT_OF_ORDER', step: 'chat' });
    expect(await pasteEvents(waiting.user.id, waiting.experimentId)).toEqual([]);
    const stranger = await createAndLogin(t());
    expect(expectJson<{ code: string }>(await paste(stranger, experimentId), 404).code).toBe('NOT_FOUND');
    const admin = await createAndLogin(t(), { isAdmin: true });
    expect(expectJson<{ code: string }>(await paste(admin, experimentId), 404).code).toBe('NOT_FOUND');
    const anonymous = await t().app.inject({
      method: 'POST',
      url: '/api/chat/paste-blocked',
      payload: { experimentId, length: 3 },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('is out of order after the participant completed the study', async () => {
    const user = await createAndLogin(t());
    const experiment = buildExperiment();
    const db = t().database.db;
    await db.insertInto('experiments').values(experiment).execute();
    await db
      .insertInto('assignments')
      .values(
        buildAssignment(
          { userId: user.id, experimentId: String(experiment.id) },
          {
            consent_given: true,
            consent_timestamp: at(1),
            completion_pathway: 'confirm',
            completion_code: 'C1',
            completed_at: at(2),
          },
        ),
      )
      .execute();
    const late = expectJson<{ code: string }>(await paste(user, String(experiment.id)), 409);
    expect(late.code).toBe('STEP_OUT_OF_ORDER');
  });

  it(`logs at most ${MAX_LOGGED_PASTES} per participant; later ones are answered but not logged`, async () => {
    const { user, experimentId } = await chatting();
    for (let i = 0; i < MAX_LOGGED_PASTES; i += 1) {
      expect(expectJson(await paste(user, experimentId, i), 200)).toEqual({ recorded: true });
    }
    expect(expectJson(await paste(user, experimentId), 200)).toEqual({ recorded: false });
    expect(await pasteEvents(user.id, experimentId)).toHaveLength(MAX_LOGGED_PASTES);
  });

  it('counts them in participants.csv: paste_attempts and the pasted_in_chat flag, empty before the chat', async () => {
    const { user, experimentId } = await chatting();
    const quiet = await joinExperiment(experimentId);
    const early = await createAndLogin(t());
    await t()
      .database.db.insertInto('assignments')
      .values(buildAssignment({ userId: early.id, experimentId }, { created_at: at(30) }))
      .execute();
    await paste(user, experimentId, 40);
    await paste(user, experimentId, 7);
    const admin = await createAndLogin(t(), { isAdmin: true });
    const res = await t().app.inject({
      method: 'GET',
      url: `/api/experiments/${experimentId}/export/participants.csv`,
      headers: admin.headers,
    });
    const rows = new Map(csvObjects(res.body).map((r) => [r.user_id, [r.paste_attempts, r.pasted_in_chat]]));
    expect(rows.get(user.id)).toEqual(['2', 'TRUE']);
    expect(rows.get(quiet.user.id)).toEqual(['0', 'FALSE']);
    expect(rows.get(early.id)).toEqual(['', '']);
  });
});

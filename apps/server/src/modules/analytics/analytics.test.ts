import type { DetailedParticipantRow, FullParticipantSummary } from '@studychat/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, useTestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { at, buildSurvey, insertExperimentRow, seedParticipant } from '../../../test/factories.js';

describe.each(TEST_DIALECTS)('participant summary and participants table on %s', (dialect) => {
  const t = useTestApp(dialect);
  let admin: TestUser;
  let participant: TestUser;
  let experimentId: string;
  let emptyExperimentId: string;
  const ids: Record<string, { userId: string; assignmentId: string }> = {};

  beforeAll(async () => {
    admin = await createAndLogin(t(), { isAdmin: true });
    participant = await createAndLogin(t());
    const db = t().database.db;
    experimentId = (await insertExperimentRow(db)).id;
    emptyExperimentId = (await insertExperimentRow(db, { name: 'Empty' })).id;
    const otherExperimentId = (await insertExperimentRow(db, { name: 'Other' })).id;

    const seed = async (key: string, spec: Parameters<typeof seedParticipant>[2], minutes: number) => {
      const p = await seedParticipant(db, experimentId, {
        ...spec,
        assignment: { ...spec?.assignment, created_at: at(minutes) },
      });
      ids[key] = { userId: p.user.id, assignmentId: p.assignment.id };
      return p;
    };
    // Full journey: trimmed characters "Hello there" (11) + "Why?" (4); the assistant's text never counts.
    const full = await seed(
      'full',
      {
        user: { last_login_at: at(45) },
        assignment: { assigned_condition: 'mmr', stratum: '3-4' },
        entry: 'questions',
        baseline: 3,
        post: 6,
        chat: [
          { role: 'assistant', content: 'Welcome! What would you like to know?' },
          { role: 'user', content: '  Hello there \n' },
          { role: 'assistant', content: 'Happy to help.' },
          { role: 'user', content: 'Why?' },
        ],
      },
      1,
    );
    // Intention went down: a negative delta. The emoji counts as 2 characters, as in the chat's progress.
    await seed(
      'down',
      {
        assignment: { assigned_condition: 'control', stratum: '5-6' },
        baseline: 6,
        post: 2,
        chat: [
          { role: 'assistant', content: 'Hi' },
          { role: 'user', content: '😀 ok' },
        ],
      },
      2,
    );
    // Left after the static pages: baseline but no post-survey, no chat.
    await seed('noPost', { assignment: { assigned_condition: 'mmr', stratum: '5-6' }, baseline: 5 }, 3);
    // No concerns at entry: never assigned a condition.
    await seed('unassigned', { entry: 'confirm' }, 4);
    // A post answer without a baseline (missing pre).
    await seed('noPre', { assignment: { assigned_condition: 'control' }, post: 4 }, 5);

    // The same login in another experiment: its answers and chat must not leak into this one.
    await t()
      .database.db.insertInto('survey_responses')
      .values(
        buildSurvey({ userId: full.user.id, experimentId: otherExperimentId }, 'baseline', {
          vaccination_intention: '1',
        }),
      )
      .execute();
    await seedParticipant(db, otherExperimentId, {
      assignment: { assigned_condition: 'mmr' },
      baseline: 2,
      post: 7,
      chat: [{ role: 'user', content: 'elsewhere' }],
    });
  });

  const get = (url: string, headers = admin.headers) => t().app.inject({ method: 'GET', url, headers });

  it('summarises participants per condition, and counts each once by status', async () => {
    const summary = expectJson<FullParticipantSummary>(
      await get(`/api/experiments/${experimentId}/participant-summary`),
      200,
    );
    // Seeded an hour before the test clock's time without any activity since: all five are stale.
    expect(summary).toEqual({
      total: 5,
      conditions: { mmr: 2, control: 2 },
      screened_out: { confirm: 0, ceiling: 0 },
      not_yet_assigned: 0,
      in_progress: 0,
      stale: 5,
      completed: { complete: 0, confirm: 0, ceiling: 0 },
    });
  });

  it('summarises an experiment without participants as zeros', async () => {
    const summary = expectJson<FullParticipantSummary>(
      await get(`/api/experiments/${emptyExperimentId}/participant-summary`),
      200,
    );
    expect(summary).toMatchObject({ total: 0, conditions: { mmr: 0, control: 0 }, stale: 0, in_progress: 0 });
  });

  it('lists one row per participant with chat effort and intentions, nulls where missing', async () => {
    const rows = expectJson<DetailedParticipantRow[]>(
      await get(`/api/experiments/${experimentId}/participants-detailed`),
      200,
    );
    const row = (key: string) => ({ assignment_id: ids[key]?.assignmentId, user_id: ids[key]?.userId });
    expect(rows).toEqual([
      {
        ...row('full'),
        assigned_condition: 'mmr',
        last_login_at: at(45),
        chat_turns: 2,
        user_char_count: 15,
        pre_intent: 3,
        post_intent: 6,
        delta: 3,
        status: 'stale',
        is_test: false,
      },
      {
        ...row('down'),
        assigned_condition: 'control',
        last_login_at: null,
        chat_turns: 1,
        user_char_count: 5,
        pre_intent: 6,
        post_intent: 2,
        delta: -4,
        status: 'stale',
        is_test: false,
      },
      {
        ...row('noPost'),
        assigned_condition: 'mmr',
        last_login_at: null,
        chat_turns: 0,
        user_char_count: 0,
        pre_intent: 5,
        post_intent: null,
        delta: null,
        status: 'stale',
        is_test: false,
      },
      {
        ...row('unassigned'),
        assigned_condition: null,
        last_login_at: null,
        chat_turns: 0,
        user_char_count: 0,
        pre_intent: null,
        post_intent: null,
        delta: null,
        status: 'stale',
        is_test: false,
      },
      {
        ...row('noPre'),
        assigned_condition: 'control',
        last_login_at: null,
        chat_turns: 0,
        user_char_count: 0,
        pre_intent: null,
        post_intent: 4,
        delta: null,
        status: 'stale',
        is_test: false,
      },
    ]);
  });

  it('answers an experiment without participants with an empty list', async () => {
    const rows = expectJson(await get(`/api/experiments/${emptyExperimentId}/participants-detailed`), 200);
    expect(rows).toEqual([]);
  });

  it('answers 404 for an unknown experiment and 400 for a malformed id', async () => {
    for (const path of ['participant-summary', 'participants-detailed']) {
      const missing = await get(`/api/experiments/${crypto.randomUUID()}/${path}`);
      expect(expectJson(missing, 404)).toEqual({ error: 'Experiment not found', code: 'NOT_FOUND' });
      expect((await get(`/api/experiments/nope/${path}`)).statusCode).toBe(400);
    }
  });

  it('refuses a participant (403) and an anonymous caller (401)', async () => {
    for (const path of ['participant-summary', 'participants-detailed']) {
      const url = `/api/experiments/${experimentId}/${path}`;
      expect(expectJson<{ code: string }>(await get(url, participant.headers), 403).code).toBe('FORBIDDEN');
      expect((await t().app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
  });
});

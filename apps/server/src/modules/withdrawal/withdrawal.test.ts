import { beforeAll, describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, useTestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { at, insertExperimentRow, seedParticipant, type SeededParticipant } from '../../../test/factories.js';
import { csvObjects } from '../analytics/parse-csv.testing.js';

describe.each(TEST_DIALECTS)('withdrawal and redacted transcripts on %s', (dialect) => {
  const t = useTestApp(dialect);
  let admin: TestUser;
  let participant: TestUser;
  let experimentId: string;
  let leaving: SeededParticipant;
  let staying: SeededParticipant;

  beforeAll(async () => {
    admin = await createAndLogin(t(), { isAdmin: true });
    participant = await createAndLogin(t());
    const db = t().database.db;
    experimentId = (await insertExperimentRow(db)).id;
    const spec = (pid: string, text: string) => ({
      assignment: { prolific_pid: pid, assigned_condition: 'mmr' as const, consent_given: true },
      entry: 'questions' as const,
      baseline: 4,
      views: [{ seconds: 16 }],
      chat: [
        { role: 'assistant' as const, content: 'Hello' },
        { role: 'user' as const, content: text },
      ],
    });
    leaving = await seedParticipant(
      db,
      experimentId,
      spec('PID-LEAVE', 'My name is Anna Smith, mail anna@example.org'),
    );
    staying = await seedParticipant(db, experimentId, {
      ...spec('PID-STAY', 'Call me on +44 20 7946 0958 please'),
      assignment: { ...spec('x', '').assignment, prolific_pid: 'PID-STAY', created_at: at(2) },
    });
    await db
      .insertInto('journey_events')
      .values({
        experiment_id: experimentId,
        user_id: leaving.user.id,
        assignment_id: leaving.assignment.id,
        type: 'joined',
        step: 'consent',
        data: null,
        created_at: at(1),
      })
      .execute();
  });

  const withdraw = (prolificId: unknown, headers = admin.headers) =>
    t().app.inject({
      method: 'POST',
      url: `/api/experiments/${experimentId}/withdrawals`,
      headers,
      payload: { prolificId },
    });

  it('shares transcripts with emails, phone numbers and introduced names redacted, and no ids', async () => {
    const res = await t().app.inject({
      method: 'GET',
      url: `/api/experiments/${experimentId}/export-transcripts`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('transcripts-redacted.csv');
    const rows = csvObjects(res.body);
    // Both chats started at the same time: which one is P0001 is not fixed, each keeps its own number.
    expect(rows.map((r) => [r.role, r.text]).sort()).toEqual(
      [
        ['assistant', 'Hello'],
        ['user', 'My name is [NAME], mail [EMAIL]'],
        ['assistant', 'Hello'],
        ['user', 'Call me on [PHONE] please'],
      ].sort(),
    );
    expect(rows.map((r) => r.participant)).toEqual(['P0001', 'P0001', 'P0002', 'P0002']);
    expect(res.body).not.toContain('PID-');
    expect(res.body).not.toContain(leaving.user.id);
  });

  it('refuses a participant (the matrix covers analysts), a missing or blank id (400) and an id nobody carries (404), deleting nothing', async () => {
    expect(expectJson<{ code: string }>(await withdraw('PID-LEAVE', participant.headers), 403).code).toBe('FORBIDDEN');
    expect(expectJson<{ code: string }>(await withdraw('   '), 400).code).toBe('VALIDATION_FAILED');
    expect(expectJson<{ code: string }>(await withdraw(undefined), 400).code).toBe('VALIDATION_FAILED');
    expect(expectJson<{ code: string }>(await withdraw('PID-NOBODY'), 404).code).toBe('NOT_FOUND');
    const assignments = await t()
      .database.db.selectFrom('assignments')
      .where('experiment_id', '=', experimentId)
      .select('id')
      .execute();
    expect(assignments).toHaveLength(2);
  });

  it('deletes every row of that participant, keeps the others, and leaves an audit trace', async () => {
    const reply = expectJson(await withdraw('PID-LEAVE'), 200);
    expect(reply).toEqual({
      prolificId: 'PID-LEAVE',
      deleted: { participants: 1, messages: 2, surveyResponses: 2, sectionRecords: 1, events: 1 },
    });
    const db = t().database.db;
    const left = async (
      table: 'assignments' | 'survey_responses' | 'section_views' | 'journey_events' | 'chat_threads',
    ) =>
      (await db.selectFrom(table).where('experiment_id', '=', experimentId).select('user_id').execute()).map(
        (r) => r.user_id,
      );
    for (const table of ['assignments', 'survey_responses', 'section_views', 'chat_threads'] as const) {
      expect(new Set(await left(table)), table).toEqual(new Set([staying.user.id]));
    }
    expect(await left('journey_events')).toEqual([]);
    const messages = await db
      .selectFrom('chat_messages')
      .where('thread_id', '=', leaving.threadId ?? '')
      .select('id')
      .execute();
    expect(messages).toEqual([]);
    const csv = await t().app.inject({
      method: 'GET',
      url: `/api/experiments/${experimentId}/export/participants.csv`,
      headers: admin.headers,
    });
    expect(csvObjects(csv.body).map((r) => r.prolific_pid)).toEqual(['PID-STAY']);
    const audit = await db.selectFrom('audit_log').where('action', '=', 'participant.withdraw').selectAll().execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(String(audit[0]?.details))).toMatchObject({ prolificId: 'PID-LEAVE', messages: 2 });
    // Done once: a second withdrawal of the same id finds nobody.
    expect(expectJson<{ code: string }>(await withdraw('PID-LEAVE'), 404).code).toBe('NOT_FOUND');
  });

  it('keeps the withdrawn id only as a hash, and refuses it when it tries to start again (a new id still can)', async () => {
    const db = t().database.db;
    const marks = await db.selectFrom('withdrawn_prolific_ids').selectAll().execute();
    expect(marks).toHaveLength(1);
    expect(marks[0]?.experiment_id).toBe(experimentId);
    expect(JSON.stringify(marks)).not.toContain('PID-LEAVE');
    const join = (user: TestUser, pid: string) =>
      t().app.inject({
        method: 'POST',
        url: '/api/participants',
        headers: user.headers,
        payload: { user_id: user.id, experiment_id: experimentId, prolific_pid: pid },
      });
    const refused = expectJson<{ code: string; error: string }>(await join(participant, 'PID-LEAVE'), 403);
    expect(refused.code).toBe('PROLIFIC_ID_WITHDRAWN');
    expect(refused.error).toContain('has withdrawn from this study');
    // Nothing was created for the refused id; setting it later on an existing participation is refused too.
    expect(await db.selectFrom('assignments').where('prolific_pid', '=', 'PID-LEAVE').select('id').execute()).toEqual(
      [],
    );
    // An older participation without a Prolific id (from before ids were required) cannot take this one.
    const other = await createAndLogin(t());
    expect(await join(other, 'PID-OTHER')).toMatchObject({ statusCode: 201 });
    await db.updateTable('assignments').set({ prolific_pid: null }).where('user_id', '=', other.id).execute();
    await db.deleteFrom('experiment_prolific_ids').where('user_id', '=', other.id).execute();
    const setId = await t().app.inject({
      method: 'PUT',
      url: '/api/participants/prolific-id',
      headers: other.headers,
      payload: { experimentId, prolificId: 'PID-LEAVE' },
    });
    expect(expectJson<{ code: string }>(setId, 403).code).toBe('PROLIFIC_ID_WITHDRAWN');
    expect(await join(participant, 'PID-FRESH')).toMatchObject({ statusCode: 201 });
  });
});

import { describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, useTestApp, type TestApp, type TestUser } from '../../test/app.js';
import { TEST_DIALECTS } from '../../test/databases.js';
import { createExperiment, participantAt, send } from '../modules/participants/journey.fixtures.js';

// The 14 places where a NUL character gave a 500 on PostgreSQL (and was stored raw on SQLite), plus the
// login fields: each is now a 400 { error, code } naming the field, and nothing is written.

interface World {
  admin: TestUser;
  experimentId: string;
  joined: TestUser;
  assigned: TestUser;
  threadId: string;
}

interface Case {
  name: string;
  field: string;
  request: (
    w: World,
    nul: string,
  ) => { user: TestUser | undefined; method: 'POST' | 'PUT'; url: string; body: unknown };
}

const CASES: Case[] = [
  {
    name: 'experiment name (create)',
    field: 'name',
    request: (w, nul) => ({ user: w.admin, method: 'POST', url: '/api/experiments', body: { name: `Study${nul}` } }),
  },
  {
    name: 'experiment description (create)',
    field: 'description',
    request: (w, nul) => ({
      user: w.admin,
      method: 'POST',
      url: '/api/experiments',
      body: { name: 'Study', description: `About${nul}it` },
    }),
  },
  {
    name: 'experiment name (edit)',
    field: 'name',
    request: (w, nul) => ({
      user: w.admin,
      method: 'PUT',
      url: `/api/experiments/${w.experimentId}`,
      body: { name: nul },
    }),
  },
  {
    name: 'experiment description (edit)',
    field: 'description',
    request: (w, nul) => ({
      user: w.admin,
      method: 'PUT',
      url: `/api/experiments/${w.experimentId}`,
      body: { description: `line\n${nul}` },
    }),
  },
  ...(['complete', 'exitnoqualms', 'exitceiling'] as const).map((key): Case => ({
    name: `completion code ${key}`,
    field: `codes.${key}`,
    request: (w, nul) => ({
      user: w.admin,
      method: 'PUT',
      url: `/api/experiments/${w.experimentId}/completion-codes`,
      body: { codes: { [key]: `C${nul}1` } },
    }),
  })),
  ...(['prolific_pid', 'study_id', 'session_id'] as const).map((field): Case => ({
    name: `${field} at join`,
    field,
    request: (w, nul) => ({
      user: w.joined,
      method: 'POST',
      url: '/api/participants',
      body: { user_id: w.joined.id, experiment_id: w.experimentId, prolific_pid: 'PID-1', [field]: `X${nul}` },
    }),
  })),
  {
    name: 'Prolific id update',
    field: 'prolificId',
    request: (w, nul) => ({
      user: w.joined,
      method: 'PUT',
      url: '/api/participants/prolific-id',
      body: { experimentId: w.experimentId, prolificId: `PID${nul}` },
    }),
  },
  {
    name: "survey's Prolific id",
    field: 'prolific_pid',
    request: (w, nul) => ({
      user: w.assigned,
      method: 'POST',
      url: '/api/surveys',
      body: {
        user_id: w.assigned.id,
        experiment_id: w.experimentId,
        prolific_pid: `PID${nul}`,
        survey_type: 'post',
        responses: { post_intent: 5 },
      },
    }),
  },
  {
    name: 'chat message',
    field: 'message',
    request: (w, nul) => ({
      user: w.assigned,
      method: 'POST',
      url: `/api/chat/threads/${w.threadId}/messages`,
      body: { message: `Is it safe?${nul}` },
    }),
  },
  {
    name: 'completion code sent with a completion',
    field: 'completionCode',
    request: (w, nul) => ({
      user: w.assigned,
      method: 'POST',
      url: '/api/participants/completion',
      body: { experimentId: w.experimentId, pathway: 'complete', completionCode: `CODE${nul}` },
    }),
  },
  {
    name: 'login email',
    field: 'email',
    request: (_w, nul) => ({
      user: undefined,
      method: 'POST',
      url: '/api/auth/login',
      body: { email: `a${nul}@b.co`, password: 'x' },
    }),
  },
  {
    name: 'login password',
    field: 'password',
    request: (w, nul) => ({
      user: undefined,
      method: 'POST',
      url: '/api/auth/login',
      body: { email: w.admin.email, password: `secret${nul}` },
    }),
  },
  {
    name: 'staff email (issue 34)',
    field: 'email',
    request: (w, nul) => ({
      user: w.admin,
      method: 'POST',
      url: '/api/admin/staff',
      body: { email: `new${nul}@lab.test`, role: 'analyst' },
    }),
  },
  {
    name: 'experiment member email (issue 34)',
    field: 'email',
    request: (w, nul) => ({
      user: w.admin,
      method: 'POST',
      url: `/api/experiments/${w.experimentId}/members`,
      body: { email: `member${nul}@lab.test`, role: 'viewer' },
    }),
  },
  {
    name: 'Prolific approval pathway (issue 33)',
    field: 'pathway',
    request: (w, nul) => ({
      user: w.admin,
      method: 'POST',
      url: `/api/experiments/${w.experimentId}/prolific/approve`,
      body: { pathway: `complete${nul}` },
    }),
  },
  ...(['prolificPid', 'studyId', 'sessionId'] as const).map((field): Case => ({
    name: `Prolific link join ${field} (issue 33)`,
    field,
    request: (w, nul) => ({
      user: undefined,
      method: 'POST',
      url: '/api/prolific/join',
      body: {
        experimentId: w.experimentId,
        prolificPid: 'PID1',
        studyId: 'STUDY1',
        sessionId: 'SESS1',
        [field]: `X${nul}`,
      },
    }),
  })),
];

/** Everything a refused request could have written. */
async function snapshot(t: TestApp): Promise<string> {
  const db = t.database.db;
  const [experiments, assignments, surveys, messages, users, members] = await Promise.all([
    db.selectFrom('experiments').selectAll().orderBy('id').execute(),
    db.selectFrom('assignments').selectAll().orderBy('id').execute(),
    db.selectFrom('survey_responses').select('id').orderBy('id').execute(),
    db.selectFrom('chat_messages').select('id').orderBy('id').execute(),
    db.selectFrom('users').select('id').orderBy('id').execute(),
    db.selectFrom('experiment_members').select(['experiment_id', 'user_id']).orderBy('user_id').execute(),
  ]);
  return JSON.stringify({ experiments, assignments, surveys, messages, users, members });
}

describe.each(TEST_DIALECTS)('hostile text on %s', (dialect) => {
  const t = useTestApp(dialect);

  async function world(): Promise<World> {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const experimentId = (await createExperiment(t(), admin)).id;
    const joined = await createAndLogin(t());
    const assigned = await participantAt(t(), experimentId, 'sections');
    const initiated = await send(t(), assigned, 'POST', '/api/chat/initiate', { experimentId });
    const { threadId } = expectJson<{ threadId: string }>(initiated, 200);
    return { admin, experimentId, joined, assigned, threadId };
  }

  it('covers the 14 fields of the probe, the two login fields, the staff email, the Prolific fields and the member email', () => {
    expect(CASES).toHaveLength(22);
  });

  it('answers NUL in each text field with 400 { error, code } naming the field, and writes nothing', async () => {
    const w = await world();
    for (const c of CASES) {
      for (const hostile of ['\u0000', '\u0007', '\u001b[31m', '\u007f', '\ud800']) {
        const { user, method, url, body } = c.request(w, hostile);
        const before = await snapshot(t());
        const res = await send(t(), user, method, url, body);
        const label = `${c.name} with ${JSON.stringify(hostile)}`;
        expect(res.statusCode, label).toBe(400);
        const reply = res.json<{ error: string; code: string }>();
        expect(reply.code, label).toBe('VALIDATION_FAILED');
        expect(reply.error, label).toContain(c.field);
        expect(reply.error, label).toMatch(/control characters/);
        expect(await snapshot(t()), label).toBe(before);
      }
    }
  });

  it('keeps tab and line breaks where text is free, and stores CRLF as LF', async () => {
    const w = await world();
    const created = await send(t(), w.admin, 'POST', '/api/experiments', {
      name: 'Study',
      description: 'First line\r\n\tindented',
    });
    expect(expectJson<{ description: string }>(created, 201).description).toBe('First line\n\tindented');
    const tabInName = await send(t(), w.admin, 'POST', '/api/experiments', { name: 'Tab\there' });
    expect(expectJson<{ code: string }>(tabInName, 400).code).toBe('VALIDATION_FAILED');
    const chat = await send(t(), w.assigned, 'POST', `/api/chat/threads/${w.threadId}/messages`, {
      message: 'Two lines:\nIs the vaccine safe?',
    });
    expect(chat.statusCode).toBe(200);
  });
});

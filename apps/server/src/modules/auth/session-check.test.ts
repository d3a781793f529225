import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createAndLogin, newSession, testConfig, type TestApp, type TestUser } from '../../../test/app.js';
import { dropTestSchemas, TEST_DIALECTS } from '../../../test/databases.js';
import { twoInstances } from '../../../test/two-instances.js';
import { createExperiment, participantAt, send, surveyBody } from '../participants/journey.fixtures.js';
import { insertSession } from './session.repository.js';
import { TokenSigner } from './token.js';

afterAll(dropTestSchemas);

// The one session check (plugins/auth.ts): every participant route, on every server process, refuses a session
// ended on another process at once, before anything is written; a session is checked against the token's user.

interface Guarded {
  name: string;
  /** The status with a live session (200 unless given): reads and repeats pass, steps not reached are refused. */
  live?: number;
  request: (
    experimentId: string,
    user: TestUser,
    threadId: string,
  ) => {
    method: 'GET' | 'POST' | 'PUT';
    url: string;
    payload?: unknown;
  };
}

/**
 * The participant's journey and chat routes, aimed at a participant whose chat is complete: each write would be
 * stored or logged (the post-survey last, as it moves the journey on).
 */
const GUARDED: Guarded[] = [
  { name: 'journey', request: (e) => ({ method: 'GET', url: `/api/participants/journey/${e}` }) },
  {
    // Joining again: refused (409), after its checks' read.
    name: 'joining',
    live: 409,
    request: (e, u) => ({
      method: 'POST',
      url: '/api/participants',
      payload: { user_id: u.id, experiment_id: e, prolific_pid: `PID-${u.id.slice(0, 8)}` },
    }),
  },
  {
    // The Prolific id it joined with again: a no-op that reads the assignment.
    name: 'prolific id',
    request: (e, u) => ({
      method: 'PUT',
      url: '/api/participants/prolific-id',
      payload: { experimentId: e, prolificId: `PID-${u.id.slice(0, 8)}` },
    }),
  },
  {
    name: 'consent',
    request: (e) => ({ method: 'POST', url: '/api/participants/consent', payload: { experimentId: e } }),
  },
  {
    name: 'assign-condition',
    request: (e) => ({ method: 'POST', url: '/api/participants/assign-condition', payload: { experimentId: e } }),
  },
  {
    name: 'section open',
    request: (e) => ({
      method: 'POST',
      url: '/api/participants/sections/open',
      payload: { experimentId: e, sectionIndex: 0 },
    }),
  },
  {
    name: 'section finish',
    request: (e) => ({
      method: 'POST',
      url: '/api/participants/sections/finish',
      payload: { experimentId: e, sectionIndex: 0, visibleSeconds: 1, hiddenSeconds: 0 },
    }),
  },
  {
    // Out of order before the post-survey: would log an `out_of_order` event.
    name: 'completion',
    live: 409,
    request: (e) => ({
      method: 'POST',
      url: '/api/participants/completion',
      payload: { experimentId: e, pathway: 'complete' },
    }),
  },
  {
    name: 'completion code',
    live: 403,
    request: (e) => ({ method: 'GET', url: `/api/experiments/${e}/completion-code?pathway=complete` }),
  },
  {
    name: 'chat initiate',
    request: (e) => ({ method: 'POST', url: '/api/chat/initiate', payload: { experimentId: e } }),
  },
  {
    name: 'initial message',
    request: (_e, _u, th) => ({ method: 'GET', url: `/api/chat/threads/${th}/initial-message` }),
  },
  {
    name: 'send message',
    request: (_e, _u, th) => ({
      method: 'POST',
      url: `/api/chat/threads/${th}/messages`,
      payload: { message: 'One more?' },
    }),
  },
  { name: 'thread messages', request: (_e, _u, th) => ({ method: 'GET', url: `/api/chat/threads/${th}/messages` }) },
  {
    name: 'post-survey',
    request: (e, u) => ({
      method: 'POST',
      url: '/api/surveys',
      payload: surveyBody(u.id, e, 'post', { post_intent: 6 }),
    }),
  },
  // Last: it ends the session.
  { name: 'logout', request: () => ({ method: 'POST', url: '/api/auth/logout' }) },
];

async function chattedParticipant(t: TestApp): Promise<{ experimentId: string; user: TestUser; threadId: string }> {
  const admin = await createAndLogin(t, { isAdmin: true });
  const { id: experimentId } = await createExperiment(t, admin);
  const user = await participantAt(t, experimentId, 'chatted');
  const initiated = await send(t, user, 'POST', '/api/chat/initiate', { experimentId });
  return { experimentId, user, threadId: (initiated.json() as { threadId: string }).threadId };
}

/** Rows a refused request must not add to. */
async function writtenRows(t: TestApp): Promise<number[]> {
  const { db } = t.database;
  const count = async (table: 'journey_events' | 'chat_messages' | 'survey_responses' | 'section_views') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return Promise.all([
    count('journey_events'),
    count('chat_messages'),
    count('survey_responses'),
    count('section_views'),
  ]);
}

function inject(t: TestApp, user: TestUser, r: ReturnType<Guarded['request']>) {
  return t.app.inject({
    method: r.method,
    url: r.url,
    headers: user.headers,
    ...(r.payload === undefined ? {} : { payload: r.payload as Record<string, unknown> }),
  });
}

describe.each(TEST_DIALECTS)('the session check on the participant routes (%s)', (dialect) => {
  it('a logout on one instance: every route refuses the session at once on the other, writing nothing', async () => {
    const { a, b, close } = await twoInstances(dialect);
    try {
      const { experimentId, user, threadId } = await chattedParticipant(a);
      // The other instance has served (and, on SQLite, cached) the session.
      expect((await send(b, user, 'GET', `/api/participants/journey/${experimentId}`)).statusCode).toBe(200);
      expect((await send(a, user, 'POST', '/api/auth/logout')).statusCode).toBe(200);
      const before = await writtenRows(b);
      for (const route of GUARDED) {
        const res = await inject(b, user, route.request(experimentId, user, threadId));
        expect(res.statusCode, `${route.name}: ${res.body}`).toBe(401);
        expect(res.json(), route.name).toMatchObject({ code: 'UNAUTHENTICATED' });
      }
      expect(await writtenRows(b)).toEqual(before);
    } finally {
      await close();
    }
  });

  it('a live session passes every route, its session read once per request where processes share the database', async () => {
    const { a, close } = await twoInstances(dialect);
    try {
      const { experimentId, user, threadId } = await chattedParticipant(a);
      // One request first, so SQLite's cache holds the session as it would in a running server.
      expect((await send(a, user, 'GET', `/api/participants/journey/${experimentId}`)).statusCode).toBe(200);
      for (const route of GUARDED) {
        const statements: string[] = [];
        a.database.queries.onQuery = (statement) => statements.push(statement);
        try {
          const res = await inject(a, user, route.request(experimentId, user, threadId));
          expect(res.statusCode, `${route.name}: ${res.body}`).toBe(route.live ?? 200);
        } finally {
          a.database.queries.onQuery = undefined;
        }
        // PostgreSQL: the guard's one read. SQLite: its per-process cache (docs/decisions/0040).
        const reads = statements.filter((s) => /from "sessions"/.test(s));
        expect(reads, route.name).toHaveLength(a.database.sharedByProcesses ? 1 : 0);
      }
    } finally {
      await close();
    }
  });

  it('a route that would answer 404 refuses an ended session first (401, not 404)', async () => {
    const { a, close } = await twoInstances(dialect);
    try {
      const admin = await createAndLogin(a, { isAdmin: true });
      const { id: experimentId } = await createExperiment(a, admin);
      const user = await createAndLogin(a);
      const notJoined = await send(a, user, 'GET', `/api/participants/journey/${experimentId}`);
      expect(notJoined.statusCode).toBe(404);
      const unknownThread = `/api/chat/threads/${randomUUID()}/messages`;
      expect((await send(a, user, 'GET', unknownThread)).statusCode).toBe(404);
      expect((await send(a, user, 'POST', '/api/auth/logout')).statusCode).toBe(200);
      expect((await send(a, user, 'GET', `/api/participants/journey/${experimentId}`)).statusCode).toBe(401);
      expect((await send(a, user, 'GET', unknownThread)).statusCode).toBe(401);
      const survey = surveyBody(user.id, experimentId, 'entry', { choice: 'questions' });
      expect((await send(a, user, 'POST', '/api/surveys', survey)).statusCode).toBe(401);
    } finally {
      await close();
    }
  });

  it('a session waiting for two-factor enrolment is refused with 403 on a participant route, as on any other', async () => {
    const { a, close } = await twoInstances(dialect);
    try {
      const { experimentId, user } = await chattedParticipant(a);
      const sessionId = randomUUID();
      const now = a.clock.now;
      const ttl = testConfig().tokenTtlSeconds;
      await insertSession(a.database.db, {
        id: sessionId,
        user_id: user.id,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + ttl * 1000).toISOString(),
        restricted: true,
      });
      const payload = { userId: user.id, email: user.email, isAdmin: false, role: 'participant' as const };
      const token = await new TokenSigner(testConfig().jwtSecret).sign(payload, sessionId, now, ttl);
      const restricted = { ...user, token, headers: { authorization: `Bearer ${token}` } };
      for (const [method, url, body] of [
        ['GET', `/api/participants/journey/${experimentId}`, undefined],
        ['POST', '/api/participants/consent', { experimentId }],
        ['POST', '/api/auth/logout', undefined],
      ] as const) {
        const res = await send(a, restricted, method, url, body);
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json()).toMatchObject({ code: 'TOTP_ENROLMENT_REQUIRED' });
      }
      // The refused logout left the session as it was.
      const row = await a.database.db
        .selectFrom('sessions')
        .select('revoked_at')
        .where('id', '=', sessionId)
        .executeTakeFirstOrThrow();
      expect(row.revoked_at).toBeNull();
      // The participant's own unrestricted session still works.
      const fresh = await newSession(a, user, 'participant');
      expect((await send(a, fresh, 'POST', '/api/chat/initiate', { experimentId })).statusCode).toBe(200);
    } finally {
      await close();
    }
  });

  it("a token naming another user's session is refused (401), cached or not", async () => {
    const { a, close } = await twoInstances(dialect);
    try {
      const { experimentId, user } = await chattedParticipant(a);
      const other = await createAndLogin(a);
      // Read once with its own token, so SQLite's cache holds the session.
      expect((await send(a, user, 'GET', `/api/participants/journey/${experimentId}`)).statusCode).toBe(200);
      const now = a.clock.now;
      const ttl = testConfig().tokenTtlSeconds;
      const signer = new TokenSigner(testConfig().jwtSecret);
      const session = await signer.verify(user.token, now);
      if (!session) throw new Error('the participant token did not verify');
      // A token signed for the other user that names the participant's session (a forged pairing).
      const payload = { userId: other.id, email: other.email, isAdmin: false, role: 'participant' as const };
      const token = await signer.sign(payload, session.sessionId, now, ttl);
      const forged = { ...other, token, headers: { authorization: `Bearer ${token}` } };
      const res = await send(a, forged, 'GET', `/api/participants/journey/${experimentId}`);
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    } finally {
      await close();
    }
  });
});

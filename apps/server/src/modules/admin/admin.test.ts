import type { AdminMessage, AdminThread, AdminUser, Assignment, SurveyResponse } from '@studychat/contracts';
import { USER_SORT_FIELDS } from '@studychat/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, useTestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { at, buildAssignment, insertExperimentRow, insertUserRow, seedParticipant } from '../../../test/factories.js';

type SortableUser = Pick<AdminUser, 'id' | 'email' | 'created_at' | 'last_login_at' | 'is_admin'>;

/** The order the API promises: by the field, nulls last in both directions, then by id. */
function expectedOrder(users: SortableUser[], field: (typeof USER_SORT_FIELDS)[number], order: 'asc' | 'desc') {
  const dir = order === 'asc' ? 1 : -1;
  const key = (u: SortableUser): string | number | null =>
    field === 'is_admin' ? (u.is_admin ? 1 : 0) : (u[field] as string | null);
  return [...users]
    .sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      if (ka === null || kb === null) {
        if (ka === kb) return a.id < b.id ? -1 : 1;
        return ka === null ? 1 : -1;
      }
      if (ka !== kb) return (ka < kb ? -1 : 1) * dir;
      return a.id < b.id ? -1 : 1;
    })
    .map((u) => u.id);
}

describe.each(TEST_DIALECTS)('admin user routes on %s', (dialect) => {
  const t = useTestApp(dialect);
  let admin: TestUser;
  let participant: TestUser;

  beforeAll(async () => {
    admin = await createAndLogin(t(), { isAdmin: true });
    participant = await createAndLogin(t());
  });

  const get = (url: string, headers = admin.headers) => t().app.inject({ method: 'GET', url, headers });

  describe('GET /api/admin/users', () => {
    beforeAll(async () => {
      const db = t().database.db;
      // Ties on created_at and is_admin, and users who never logged in, so every sort has something to order.
      await insertUserRow(db, { email: 'zed@study.test', created_at: at(5), last_login_at: at(50) });
      await insertUserRow(db, { email: 'amy@study.test', created_at: at(5), last_login_at: null });
      await insertUserRow(db, { email: 'mia@study.test', created_at: at(-5), last_login_at: at(20), is_admin: true });
      await insertUserRow(db, { email: 'bob@study.test', created_at: at(90), last_login_at: null });
    });

    it('defaults to created_at descending and returns the user fields', async () => {
      const users = expectJson<AdminUser[]>(await get('/api/admin/users'), 200);
      expect(users.map((u) => u.id)).toEqual(expectedOrder(users, 'created_at', 'desc'));
      expect(users.length).toBeGreaterThanOrEqual(6);
      const mia = users.find((u) => u.email === 'mia@study.test');
      expect(mia).toEqual({
        id: expect.any(String),
        email: 'mia@study.test',
        created_at: at(-5),
        updated_at: at(0),
        last_login_at: at(20),
        is_admin: true,
        is_test: false,
        metadata: null,
      });
      expect(users.find((u) => u.id === admin.id)?.last_login_at).not.toBeNull();
      // The real login wrote a password hash, but the reply never carries it.
      expect(JSON.stringify(users)).not.toMatch(/hash|argon/);
    });

    for (const field of USER_SORT_FIELDS) {
      for (const order of ['asc', 'desc'] as const) {
        it(`sorts by ${field} ${order}, never-logged-in users last`, async () => {
          const users = expectJson<AdminUser[]>(await get(`/api/admin/users?sortBy=${field}&order=${order}`), 200);
          expect(users.map((u) => u.id)).toEqual(expectedOrder(users, field, order));
          if (field === 'last_login_at') {
            const firstNever = users.findIndex((u) => u.last_login_at === null);
            expect(firstNever).toBeGreaterThan(0);
            expect(users.slice(firstNever).every((u) => u.last_login_at === null)).toBe(true);
          }
        });
      }
    }

    it('rejects an unknown sort field or order with 400', async () => {
      for (const query of ['sortBy=password_hash', 'sortBy=password', 'order=up', 'sortBy=email&order=DESC']) {
        const res = await get(`/api/admin/users?${query}`);
        expect(expectJson<{ code: string }>(res, 400).code).toBe('VALIDATION_FAILED');
      }
    });

    it('returns a user metadata object', async () => {
      const withMeta = await createAndLogin(t(), { metadata: { cohort: 'pilot', wave: 2 } });
      const user = expectJson<AdminUser>(await get(`/api/admin/users/${withMeta.id}`), 200);
      expect(user.metadata).toEqual({ cohort: 'pilot', wave: 2 });
    });
  });

  describe('one user', () => {
    let experimentId: string;
    let otherExperimentId: string;
    let seeded: Awaited<ReturnType<typeof seedParticipant>>;
    let otherThreadId: string;

    beforeAll(async () => {
      const db = t().database.db;
      experimentId = (await insertExperimentRow(db)).id;
      otherExperimentId = (await insertExperimentRow(db, { name: 'Second' })).id;
      seeded = await seedParticipant(db, experimentId, {
        user: { email: 'detail@study.test', metadata: JSON.stringify({ source: 'prolific' }) },
        assignment: {
          prolific_pid: 'PID-1',
          assigned_condition: 'mmr',
          stratum: '3-4',
          condition_assigned_at: at(5),
          consent_given: true,
          consent_timestamp: at(2),
          completion_pathway: 'complete',
          completed_at: at(40),
        },
        entry: 'questions',
        baseline: 4,
        chat: [
          { role: 'assistant', content: 'Hello! Ask me anything.' },
          { role: 'user', content: 'Is it safe?' },
          {
            role: 'assistant',
            content: 'Yes, very.',
            overrides: {
              thinking_log: JSON.stringify([
                { type: 'thinking', thinking: 'They ask about safety.' },
                { type: 'redacted_thinking' },
              ]),
              input_tokens: 300,
              output_tokens: 40,
              uncached_input_tokens: 20,
              cache_write_tokens: 30,
              cache_read_tokens: 250,
              cost_usd: 0.0123,
              model_used: 'claude-test',
            },
          },
        ],
      });
      // A second assignment with an untitled, empty thread.
      await t()
        .database.db.insertInto('assignments')
        .values(
          buildAssignment(
            { userId: seeded.user.id, experimentId: otherExperimentId },
            { created_at: at(60), updated_at: at(60) },
          ),
        )
        .execute();
      await t()
        .database.db.insertInto('chat_threads')
        .values({
          id: crypto.randomUUID(),
          user_id: seeded.user.id,
          experiment_id: otherExperimentId,
          condition: 'control',
          title: 'Empty one',
          reply_lock_id: null,
          reply_lock_until: null,
          created_at: at(70),
          updated_at: at(70),
        })
        .execute();
      const other = await seedParticipant(db, experimentId, { chat: [{ role: 'assistant', content: 'Hi other' }] });
      otherThreadId = other.threadId ?? '';
    });

    it('GET /api/admin/users/:id returns the profile, and 404 for an unknown id', async () => {
      const user = expectJson<AdminUser>(await get(`/api/admin/users/${seeded.user.id}`), 200);
      expect(user).toMatchObject({ id: seeded.user.id, email: 'detail@study.test', metadata: { source: 'prolific' } });
      const missing = await get(`/api/admin/users/${crypto.randomUUID()}`);
      expect(expectJson(missing, 404)).toEqual({ error: 'User not found', code: 'NOT_FOUND' });
      expect((await get('/api/admin/users/not-a-uuid')).statusCode).toBe(400);
    });

    it('lists threads with message count and last message time, newest thread first', async () => {
      const threads = expectJson<AdminThread[]>(await get(`/api/admin/users/${seeded.user.id}/threads`), 200);
      expect(threads).toEqual([
        {
          id: expect.any(String),
          experiment_id: otherExperimentId,
          title: 'Empty one',
          message_count: 0,
          last_message_at: null,
        },
        {
          id: seeded.threadId,
          experiment_id: experimentId,
          // Stored without a title (before titles were stored): named by condition and start time.
          title: 'mmr chat, started 2026-11-20 09:10 UTC',
          message_count: 3,
          last_message_at: at(12),
        },
      ]);
      expect(expectJson(await get(`/api/admin/users/${participant.id}/threads`), 200)).toEqual([]);
      expect((await get(`/api/admin/users/${crypto.randomUUID()}/threads`)).statusCode).toBe(404);
    });

    it('lists a thread’s messages in order with usage, cost and the thinking log as JSON text', async () => {
      const res = await get(`/api/admin/users/${seeded.user.id}/threads/${seeded.threadId}/messages`);
      const messages = expectJson<AdminMessage[]>(res, 200);
      expect(messages.map((m) => [m.role, m.content])).toEqual([
        ['assistant', 'Hello! Ask me anything.'],
        ['user', 'Is it safe?'],
        ['assistant', 'Yes, very.'],
      ]);
      expect(messages[1]).toMatchObject({ tokens_used: null, cost_usd: null, model_used: null, thinking_log: null });
      expect(messages[2]).toEqual({
        id: seeded.messageIds[2],
        role: 'assistant',
        content: 'Yes, very.',
        created_at: at(12),
        status: 'complete',
        error_message: null,
        thinking_log: '[{"type":"thinking","thinking":"They ask about safety."},{"type":"redacted_thinking"}]',
        model_used: 'claude-test',
        tokens_used: 340,
        input_tokens: 300,
        output_tokens: 40,
        uncached_input_tokens: 20,
        cache_write_tokens: 30,
        cache_read_tokens: 250,
        cost_usd: 0.0123,
        queue_ms: null,
        fallback_from: null,
        first_token_ms: 120,
        total_ms: 900,
        stop_reason: 'end_turn',
      });
    });

    it('answers 404 for another user’s thread and for an unknown thread', async () => {
      const foreign = await get(`/api/admin/users/${seeded.user.id}/threads/${otherThreadId}/messages`);
      expect(expectJson(foreign, 404)).toEqual({ error: 'Thread not found', code: 'NOT_FOUND' });
      const unknown = await get(`/api/admin/users/${seeded.user.id}/threads/${crypto.randomUUID()}/messages`);
      expect(unknown.statusCode).toBe(404);
    });

    it('lists assignments with consent, condition and completion', async () => {
      const list = expectJson<Assignment[]>(await get(`/api/admin/users/${seeded.user.id}/assignments`), 200);
      expect(list).toHaveLength(2);
      expect(list[0]).toEqual({
        id: seeded.assignment.id,
        user_id: seeded.user.id,
        experiment_id: experimentId,
        prolific_pid: 'PID-1',
        study_id: null,
        session_id: null,
        assigned_condition: 'mmr',
        stratum: '3-4',
        condition_assigned_at: at(5),
        consent_given: true,
        consent_timestamp: at(2),
        created_at: at(1),
        intervention_completed_timestamp: null,
        completion_pathway: 'complete',
        completed_at: at(40),
      });
      expect(list[1]).toMatchObject({
        experiment_id: otherExperimentId,
        assigned_condition: null,
        consent_given: false,
      });
      expect(expectJson(await get(`/api/admin/users/${participant.id}/assignments`), 200)).toEqual([]);
      expect((await get(`/api/admin/users/${crypto.randomUUID()}/assignments`)).statusCode).toBe(404);
    });

    it('lists survey responses with the responses parsed as an object', async () => {
      const list = expectJson<SurveyResponse[]>(await get(`/api/admin/users/${seeded.user.id}/survey-responses`), 200);
      expect(list).toEqual([
        {
          id: expect.any(String),
          experiment_id: experimentId,
          survey_type: 'entry',
          responses: { choice: 'questions' },
          created_at: at(2),
        },
        {
          id: expect.any(String),
          experiment_id: experimentId,
          survey_type: 'baseline',
          responses: { vaccination_intention: '4' },
          created_at: at(3),
        },
      ]);
      expect((await get(`/api/admin/users/${crypto.randomUUID()}/survey-responses`)).statusCode).toBe(404);
    });

    it('refuses every route to a participant (403) and to an anonymous caller (401)', async () => {
      const urls = [
        '/api/admin/users',
        `/api/admin/users/${seeded.user.id}`,
        `/api/admin/users/${seeded.user.id}/threads`,
        `/api/admin/users/${seeded.user.id}/threads/${seeded.threadId}/messages`,
        `/api/admin/users/${seeded.user.id}/assignments`,
        `/api/admin/users/${seeded.user.id}/survey-responses`,
        // A participant asking about themselves is refused too.
        `/api/admin/users/${participant.id}`,
      ];
      for (const url of urls) {
        expect(expectJson(await get(url, participant.headers), 403)).toEqual({
          error: 'Admin access required',
          code: 'FORBIDDEN',
        });
        const anonymous = await t().app.inject({ method: 'GET', url });
        expect(expectJson<{ code: string }>(anonymous, 401).code).toBe('UNAUTHENTICATED');
      }
    });
  });
});

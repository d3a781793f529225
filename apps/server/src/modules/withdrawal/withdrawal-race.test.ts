import { randomUUID } from 'node:crypto';
import { strFromU8, unzipSync } from 'fflate';
import { SPEC_CHAT_RULE } from '@studychat/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAndLogin, useTestApp, type TestUser } from '../../../test/app.js';
import { chatClient } from '../../../test/chat.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { csvObjects } from '../analytics/parse-csv.testing.js';
import { closeChat } from '../chat/chat-journey.js';
import { storeFinishedReply } from '../chat/reply-store.js';
import { withdrawParticipant } from './withdrawal.service.js';

// A withdrawal deletes everything a participant left; writes of theirs racing it must not leave anything behind
// (issue 28: on PostgreSQL, blocked-paste reports racing a withdrawal left 8 events in events.csv). The withdrawal
// locks the participant's assignment first; the writes that append their events outside the journey gate take
// the same lock and insert only while the assignment exists (docs/decisions/0074-hardening.md).

const ROUNDS = 4;
const PASTES = 40;

describe.each(TEST_DIALECTS)('withdrawal against concurrent writes, on %s', (dialect) => {
  const t = useTestApp(dialect);
  const { startThread } = chatClient(t);
  let admin: TestUser;

  beforeAll(async () => {
    admin = await createAndLogin(t(), { isAdmin: true });
  });

  const leftOf = async (userId: string, experimentId: string) => {
    const { db } = t().database;
    const count = async (table: 'journey_events' | 'chat_threads' | 'survey_responses' | 'assignments') =>
      (
        await db
          .selectFrom(table)
          .select('user_id')
          .where('user_id', '=', userId)
          .where('experiment_id', '=', experimentId)
          .execute()
      ).length;
    return {
      events: await count('journey_events'),
      threads: await count('chat_threads'),
      surveys: await count('survey_responses'),
      assignments: await count('assignments'),
    };
  };

  it('leaves no event of a participant whose blocked-paste reports race the withdrawal', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { user, experimentId } = await startThread();
      const pid = `PID-RACE-${round}`;
      await t()
        .database.db.updateTable('assignments')
        .set({ prolific_pid: pid })
        .where('user_id', '=', user.id)
        .execute();
      const paste = () =>
        t().app.inject({
          method: 'POST',
          url: '/api/chat/paste-blocked',
          headers: user.headers,
          payload: { experimentId, length: 12 },
        });
      const withdraw = () =>
        t().app.inject({
          method: 'POST',
          url: `/api/experiments/${experimentId}/withdrawals`,
          headers: admin.headers,
          payload: { prolificId: pid },
        });
      const half = PASTES / 2;
      const replies = await Promise.all([
        ...Array.from({ length: half }, paste),
        withdraw(),
        ...Array.from({ length: half }, paste),
      ]);
      const withdrawal = replies[half];
      expect(withdrawal?.statusCode, withdrawal?.body).toBe(200);
      // Each report was stored before the withdrawal (and deleted by it) or refused after it: never a 5xx.
      for (const reply of replies.filter((r) => r !== withdrawal)) {
        expect([200, 404], reply.body).toContain(reply.statusCode);
      }
      expect(await leftOf(user.id, experimentId)).toEqual({ events: 0, threads: 0, surveys: 0, assignments: 0 });
      const pkg = await t().app.inject({
        method: 'GET',
        url: `/api/experiments/${experimentId}/export-package`,
        headers: admin.headers,
      });
      expect(pkg.statusCode).toBe(200);
      const files = unzipSync(new Uint8Array(pkg.rawPayload));
      const events = Object.entries(files).find(([name]) => name.endsWith('events.csv'))?.[1];
      expect(csvObjects(strFromU8(events ?? new Uint8Array()))).toEqual([]);
    }
  });

  it('leaves no chat_complete event when replies completing the chat and a limit closing it race the withdrawal', async () => {
    const { db } = t().database;
    for (let round = 0; round < ROUNDS; round++) {
      const { user, experimentId, threadId } = await startThread();
      const pid = `PID-REPLY-RACE-${round}`;
      await db.updateTable('assignments').set({ prolific_pid: pid }).where('user_id', '=', user.id).execute();
      const thread = { id: threadId, user_id: user.id, experiment_id: experimentId };
      const now = t().clock.now;
      const completing = () =>
        storeFinishedReply(db, {
          messageId: randomUUID(),
          changes: { status: 'complete' },
          threadId,
          tokens: 10,
          costUsd: 0,
          chatComplete: {
            experimentId,
            userId: user.id,
            type: 'chat_complete',
            step: 'chat',
            data: { threadId },
            createdAt: now.toISOString(),
          },
        });
      const writes = [
        ...Array.from({ length: 10 }, completing),
        closeChat(db, thread, 'message_limit', SPEC_CHAT_RULE, now),
        withdrawParticipant(t().deps, experimentId, pid),
        ...Array.from({ length: 10 }, completing),
      ];
      // Every write ends cleanly: before the withdrawal (and deleted by it) or after it (writing nothing).
      const outcomes = await Promise.allSettled(writes);
      expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
      expect(await leftOf(user.id, experimentId)).toEqual({ events: 0, threads: 0, surveys: 0, assignments: 0 });
    }
  });
});

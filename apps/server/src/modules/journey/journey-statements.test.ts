import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createAndLogin, useTestApp } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { readJourneyFacts } from './journey-facts.repository.js';
import { COMPLETE_CHAT, createExperiment, participantAt, send, surveyBody } from '../participants/journey.fixtures.js';

// Statements per request on the participant's hot paths, pinned (DESIGN.md section 6): a change that adds one
// to a hot path fails here and says why in its own change. The journey's facts and the chat's thread are each
// one read; a write re-reads the journey inside its transaction only when its reply carries it. The auth guard's
// own statements (the session check, the last-seen touch) are left out: they are counted in session-cache.test.ts.
const GUARD = /from "sessions"|update "users" set "last_seen_at"/;
const FACT_TABLES = /"?(assignments|survey_responses|section_views|chat_threads|chat_messages)"? /;

describe.each(TEST_DIALECTS)('statements per request on %s', (dialect) => {
  const t = useTestApp(dialect);

  async function statementsOf(run: () => Promise<LightMyRequestResponse>): Promise<string[]> {
    const seen: string[] = [];
    t().database.queries.onQuery = (statement) => {
      if (!GUARD.test(statement)) seen.push(statement.replace(/\s+/g, ' ').trim());
    };
    try {
      const res = await run();
      expect(res.statusCode, res.body).toBeLessThan(300);
    } finally {
      t().database.queries.onQuery = undefined;
    }
    return seen;
  }

  async function participant(until: Parameters<typeof participantAt>[2]) {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id: experimentId } = await createExperiment(t(), admin);
    return { user: await participantAt(t(), experimentId, until), experimentId };
  }

  it('reads the whole journey (surveys, sections, chat and its messages) in one statement, and no study', async () => {
    const { user, experimentId } = await participant('chatted');
    const statements = await statementsOf(() => send(t(), user, 'GET', `/api/participants/journey/${experimentId}`));
    // The experiment has a real participant: its study cannot change and is kept in the process.
    expect(statements.filter((s) => FACT_TABLES.test(s))).toHaveLength(1);
    expect(statements).toHaveLength(1);
  });

  it("reads the participant's own messages' text into the journey's facts, not the replies'", async () => {
    const { user, experimentId } = await participant('chatted');
    const facts = await readJourneyFacts(t().database.db, user.id, experimentId);
    const mine = facts?.messages.filter((m) => m.role === 'user') ?? [];
    const replies = facts?.messages.filter((m) => m.role === 'assistant') ?? [];
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((m) => m.content.length > 0)).toBe(true);
    expect(replies.length).toBeGreaterThan(0);
    expect(replies.every((m) => m.content === '')).toBe(true);
    // Progress is counted from the questions alone, so the journey still sees the chat as done.
    const journey = await send(t(), user, 'GET', `/api/participants/journey/${experimentId}`);
    expect(journey.json()).toMatchObject({ step: 'post_survey' });
  });

  it('joining: its checks in one read, then the assignment, its Prolific id and its event in one transaction', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const { id: experimentId } = await createExperiment(t(), admin);
    const user = await createAndLogin(t());
    const statements = await statementsOf(() =>
      send(t(), user, 'POST', '/api/participants', {
        user_id: user.id,
        experiment_id: experimentId,
        prolific_pid: 'PID-JOIN-COUNT',
      }),
    );
    const begin = statements.findIndex((s) => /^begin/i.test(s));
    // The experiment, the login, its Prolific ids and the id's withdrawal: one statement (four before); then
    // whether the experiment is a follow-up wave, the waves module's own read (docs/decisions/0091).
    expect(statements.slice(0, begin)).toHaveLength(2);
    expect(statements[0]).toMatch(/withdrawn_prolific_ids/);
    expect(statements[1]).toMatch(/experiment_waves/);
    const commit = statements.findIndex((s) => /^commit/i.test(s));
    // The assignment, whether the experiment still admits (its chat limits: no budget here, so no spend read;
    // docs/decisions/0073), the Prolific id and the event.
    expect(statements.slice(begin + 1, commit)).toHaveLength(4);
    // After the commit: the journey the reply carries (decision 0068), and the first participant's read of the
    // study version the experiment pins (kept in the process once someone takes part).
    const after = statements.slice(commit + 1);
    expect(after.filter((s) => /json_group_array|json_agg/i.test(s))).toHaveLength(1);
    expect(after.filter((s) => !/json_group_array|json_agg/i.test(s) && !/"study_versions"/.test(s))).toEqual([]);
  });

  it('the completion code: read with the facts that earn it, in one statement (decision 0070)', async () => {
    const { user, experimentId } = await participant('completed');
    const statements = await statementsOf(() =>
      send(t(), user, 'GET', `/api/experiments/${experimentId}/completion-code?pathway=complete`),
    );
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(FACT_TABLES);
    expect(statements[0]).toMatch(/from completion_codes c/);
  });

  // PostgreSQL locks the participant's row with a statement of its own; SQLite runs one writer at a time.
  const lock = dialect === 'postgres' ? 1 : 0;

  it('a journey write: the facts after the lock, its row and its event, in one transaction', async () => {
    const { user, experimentId } = await participant('assigned');
    const statements = await statementsOf(() =>
      send(t(), user, 'POST', '/api/participants/sections/open', { experimentId, sectionIndex: 0 }),
    );
    expect(statements.filter((s) => /^select/i.test(s) && FACT_TABLES.test(s))).toHaveLength(1 + lock);
    // BEGIN, (lock), facts, the row, its event, COMMIT.
    expect(statements).toHaveLength(5 + lock);
    expect(statements[0]).toMatch(/^begin/i);
    expect(statements.at(-1)).toMatch(/^commit/i);
  });

  it('finishing a section and opening the next: one write', async () => {
    const { user, experimentId } = await participant('assigned');
    await send(t(), user, 'POST', '/api/participants/sections/open', { experimentId, sectionIndex: 0 });
    t().clock.advance(60_000);
    const statements = await statementsOf(() =>
      send(t(), user, 'POST', '/api/participants/sections/finish', {
        experimentId,
        sectionIndex: 0,
        visibleSeconds: 60,
        hiddenSeconds: 0,
      }),
    );
    // BEGIN, (lock), facts, finish, its event, opening, its event, COMMIT. Opening apart was more and a request.
    expect(statements).toHaveLength(7 + lock);
    expect(statements.filter((s) => /insert into "journey_events"/i.test(s))).toHaveLength(2);
    expect(statements.filter((s) => /insert into "section_views"/i.test(s))).toHaveLength(1);
  });

  it.each([
    ['consent', 'joined', true],
    ['a survey', 'consented', true],
    ['completion', 'post', false],
  ] as const)(
    '%s: its row and its event in one transaction, the journey after it read inside',
    async (_, at, leads) => {
      const { user, experimentId } = await participant(at);
      const study = await t().deps.studies(experimentId);
      const write = {
        joined: () => send(t(), user, 'POST', '/api/participants/consent', { experimentId }),
        consented: () =>
          send(
            t(),
            user,
            'POST',
            '/api/surveys',
            surveyBody(user.id, experimentId, 'entry', { [study.entry.key]: study.entry.values.continue }),
          ),
        post: () => send(t(), user, 'POST', '/api/participants/completion', { experimentId, pathway: 'complete' }),
      }[at];
      let response: LightMyRequestResponse | undefined;
      const statements = await statementsOf(async () => (response = await write()));
      expect(response?.statusCode).toBe(200);
      // BEGIN, (lock), facts, the write, its event, (the journey after it, for a write that leads to the next
      // page: decision 0068), COMMIT. Nothing before: the experiment is read only when there is no assignment,
      // the completion code inside the update.
      expect(statements).toHaveLength(5 + lock + (leads ? 1 : 0));
      if (leads) expect(response?.json()).toHaveProperty('journey');
      expect(statements[0]).toMatch(/^begin/i);
      expect(statements.at(-1)).toMatch(/^commit/i);
      expect(statements.filter((s) => /insert into "journey_events"/i.test(s))).toHaveLength(1);
      expect(statements.filter((s) => /json_group_array|json_agg/i.test(s))).toHaveLength(leads ? 2 : 1);
    },
  );

  it('the condition assignment: the condition and its event in one transaction, with the journey after it', async () => {
    const { user, experimentId } = await participant('pre');
    const response = await send(t(), user, 'POST', '/api/participants/assign-condition', { experimentId });
    expect(response.json()).toHaveProperty('journey.step', 'sections');
    const other = await participant('pre');
    const statements = await statementsOf(() =>
      send(t(), other.user, 'POST', '/api/participants/assign-condition', { experimentId: other.experimentId }),
    );
    expect(statements.filter((s) => /insert into "journey_events"/i.test(s))).toHaveLength(1);
    expect(statements.at(-1)).toMatch(/^commit/i);
  });

  it('a chat message: the thread with its limits, completion and messages in one read, both rows in one insert', async () => {
    const { user, experimentId } = await participant('sections');
    const { threadId } = (await send(t(), user, 'POST', '/api/chat/initiate', { experimentId })).json<{
      threadId: string;
    }>();
    await send(t(), user, 'GET', `/api/chat/threads/${threadId}/initial-message`);
    const statements = await statementsOf(() =>
      send(t(), user, 'POST', `/api/chat/threads/${threadId}/messages`, { message: COMPLETE_CHAT[0] }),
    );
    const reads = statements.filter((s) => /^select/i.test(s));
    // The thread's read and the messages under the lease; the reply's own transaction (which decides whether
    // this reply completed the chat) counts from those rows, as nothing else adds one while the lease is held;
    // the study's prompts come from the process.
    expect(reads.filter((s) => FACT_TABLES.test(s))).toHaveLength(2);
    expect(reads).toHaveLength(2);
    expect(statements.filter((s) => /^insert into "chat_messages"/i.test(s))).toHaveLength(1);
    // The finished reply and the thread's totals stored together (db/atomic-writes.ts): one statement on
    // PostgreSQL, no transaction (decision 0069); SQLite: BEGIN, the totals, the reply, COMMIT.
    const stored = statements.filter((s) => /update "chat_messages" set "content"/i.test(s));
    expect(stored).toHaveLength(1);
    if (dialect === 'postgres') {
      expect(stored[0]).toMatch(
        /^with w0 as \(update "chat_threads" set "tokens_used".*, w1 as \(update "chat_messages" /i,
      );
      expect(statements.filter((s) => /^(begin|commit)/i.test(s))).toEqual([]);
    } else {
      expect(statements.filter((s) => /^(begin|commit)/i.test(s))).toEqual(['begin', 'commit']);
    }
  });

  it('the reply that completes the chat stores its journey event in the same statement (PostgreSQL) or transaction', async () => {
    const { user, experimentId } = await participant('sections');
    const { threadId } = (await send(t(), user, 'POST', '/api/chat/initiate', { experimentId })).json<{
      threadId: string;
    }>();
    await send(t(), user, 'GET', `/api/chat/threads/${threadId}/initial-message`);
    for (const message of COMPLETE_CHAT.slice(0, -1)) {
      await send(t(), user, 'POST', `/api/chat/threads/${threadId}/messages`, { message });
    }
    const statements = await statementsOf(() =>
      send(t(), user, 'POST', `/api/chat/threads/${threadId}/messages`, { message: COMPLETE_CHAT.at(-1) }),
    );
    const events = statements.filter((s) => /insert into "journey_events"/i.test(s));
    expect(events).toHaveLength(1);
    // The event finds the assignment itself: no read of it of its own.
    expect(statements.filter((s) => /^select \* from "assignments"/i.test(s))).toEqual([]);
    // Only where the assignment still exists, held first on PostgreSQL: a withdrawal racing it leaves no event
    // (decision 0074).
    if (dialect === 'postgres') {
      expect(events[0]).toMatch(/^with w0 as \(update "chat_threads"/i);
      const hold = statements.findIndex((s) => /^select "id" from "assignments" .* for key share$/i.test(s));
      expect(statements.slice(hold - 1, hold + 3)).toEqual(['begin', statements[hold], events[0], 'commit']);
    } else {
      expect(events[0]).toMatch(/^insert into "journey_events" .* select .* from "assignments" as "a" where/i);
    }
    const journey = await send(t(), user, 'GET', `/api/participants/journey/${experimentId}`);
    expect(journey.json<{ step: string }>().step).toBe('post_survey');
  });
});

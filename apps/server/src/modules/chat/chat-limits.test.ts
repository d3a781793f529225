import {
  CHAT_CLOSED_TEXT,
  messageTooLongText,
  studyDefinition,
  type ChatLimitsReply,
  type SystemInfo,
  type ThreadMessagesReply,
} from '@studychat/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, useTestApp, type TestUser } from '../../../test/app.js';
import { chatClient, REAL_INFO, streamedText, SwitchableModel } from '../../../test/chat.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { estimateTokens } from '../../llm/history.js';

// Every limit of the chat (issue 11), per experiment over the environment's defaults, on both databases.
describe.each(TEST_DIALECTS)('chat limits on %s', (dialect) => {
  const model = new SwitchableModel();
  const t = useTestApp(dialect, { deps: { llm: model } });
  const chat = chatClient(t);
  let admin: TestUser;

  beforeEach(async () => {
    model.reset();
    admin ??= await createAndLogin(t(), { isAdmin: true });
  });

  const thread = async (user: TestUser, threadId: string) =>
    expectJson<ThreadMessagesReply>(await chat.messages(user, threadId), 200);
  const limitsOf = (experimentId: string, as: TestUser = admin) =>
    t().app.inject({ method: 'GET', url: `/api/experiments/${experimentId}/chat-limits`, headers: as.headers });
  const setLimits = (experimentId: string, overrides: Record<string, unknown>, as: TestUser = admin) =>
    t().app.inject({
      method: 'PUT',
      url: `/api/experiments/${experimentId}/chat-limits`,
      headers: as.headers,
      payload: { overrides },
    });
  const realReplies = () => {
    model.behaviour = async (_request, onText) => {
      onText('An answer.');
      return REAL_INFO;
    };
  };

  describe('messages per thread', () => {
    it('counts down, ends the chat after the reply to the last message, then refuses more with 409 CHAT_CLOSED', async () => {
      const { user, threadId, experimentId } = await chat.startThread('mmr', { chat_max_messages: 2 });
      expect(expectJson<{ limits: unknown }>(await chat.initiate(user, experimentId), 200).limits).toEqual({
        maxMessageChars: 1000,
        messagesLeft: 2,
      });
      await chat.initial(user, threadId);
      expect((await chat.send(user, threadId, 'First question')).statusCode).toBe(200);
      let state = await thread(user, threadId);
      expect(state.limits.messagesLeft).toBe(1);
      expect(state.progress.closed).toBeNull();

      expect((await chat.send(user, threadId, 'Second question')).statusCode).toBe(200);
      state = await thread(user, threadId);
      expect(state.limits.messagesLeft).toBe(0);
      expect(state.progress.closed).toEqual({ reason: 'message_limit' });
      expect(state.progress.complete).toBe(false);

      const calls = model.calls.length;
      const refused = await chat.send(user, threadId, 'Third question');
      expect(expectJson(refused, 409)).toEqual({ error: CHAT_CLOSED_TEXT.message_limit, code: 'CHAT_CLOSED' });
      expect(model.calls).toHaveLength(calls);
      expect((await chat.storedMessages(threadId)).filter((r) => r.role === 'user')).toHaveLength(2);
      // The greeting is still there to read.
      expect(streamedText(await chat.initial(user, threadId))).toBe(
        studyDefinition.chat.conditions.mmr.scripted.opening,
      );
      expect((await chat.storedThread(threadId)).closed_reason).toBe('message_limit');
    });

    it('takes 30 messages by default', async () => {
      const { user, experimentId } = await chat.participant();
      const reply = expectJson<{ limits: { messagesLeft: number } }>(await chat.initiate(user, experimentId), 200);
      expect(reply.limits.messagesLeft).toBe(30);
    });
  });

  describe('characters per message', () => {
    it('refuses a message over the limit with 400 and a clear message, never cutting it; emoji count as one', async () => {
      const { user, threadId } = await chat.startThread();
      const refused = await chat.send(user, threadId, 'x'.repeat(1001));
      expect(expectJson(refused, 400)).toEqual({ error: messageTooLongText(1001, 1000), code: 'MESSAGE_TOO_LONG' });
      expect(messageTooLongText(1001, 1000)).toBe(
        'Your message is 1,001 characters long; this chat takes at most 1,000. Please shorten it and send it again.',
      );
      expect(await chat.storedMessages(threadId)).toEqual([]);
      expect((await chat.send(user, threadId, 'x'.repeat(1000))).statusCode).toBe(200);
      expect((await chat.send(user, threadId, '😀'.repeat(1000))).statusCode).toBe(200);
      const stored = (await chat.storedMessages(threadId)).filter((r) => r.role === 'user').map((r) => r.content);
      expect(stored).toEqual(['x'.repeat(1000), '😀'.repeat(1000)]);
    });

    it('follows the experiment’s own limit', async () => {
      const { user, threadId, experimentId } = await chat.startThread('mmr', { chat_max_message_chars: 20 });
      expect(expectJson<{ limits: unknown }>(await chat.initiate(user, experimentId), 200).limits).toMatchObject({
        maxMessageChars: 20,
      });
      expect(expectJson<{ code: string }>(await chat.send(user, threadId, 'x'.repeat(21)), 400).code).toBe(
        'MESSAGE_TOO_LONG',
      );
      expect((await chat.send(user, threadId, 'x'.repeat(20))).statusCode).toBe(200);
    });
  });

  describe('reply tokens and history', () => {
    it('asks for the experiment’s reply tokens, or the default', async () => {
      const own = await chat.startThread('mmr', { chat_reply_tokens: 123 });
      await chat.send(own.user, own.threadId, 'Hello');
      expect(model.calls.at(-1)?.maxTokens).toBe(123);
      const other = await chat.startThread();
      await chat.send(other.user, other.threadId, 'Hello');
      expect(model.calls.at(-1)?.maxTokens).toBe(1024);
    });

    it('sends only the newest turns that fit, always with the system prompt, starting with a user turn', async () => {
      const system = studyDefinition.chat.conditions.mmr.systemPrompt;
      const question = (i: number) => `Question number ${i}: ${'about measles and the vaccine '.repeat(5)}`;
      // Room for the system prompt and about four turns.
      const budget = estimateTokens(system) + 4 * estimateTokens(question(0)) + 10;
      const { user, threadId } = await chat.startThread('mmr', { chat_history_tokens: budget });
      await chat.initial(user, threadId);
      model.behaviour = async (_request, onText) => {
        onText('A short answer.');
        return REAL_INFO;
      };
      for (let i = 1; i <= 6; i += 1) await chat.send(user, threadId, question(i));
      const last = model.calls.at(-1);
      expect(last?.system).toBe(system);
      const history = last?.history ?? [];
      expect(history.at(-1)).toEqual({ role: 'user', content: question(6) });
      expect(history[0]?.role).toBe('user');
      expect(history.length).toBeLessThan(13);
      expect(history.length).toBeGreaterThanOrEqual(3);
      const used = estimateTokens(system) + history.reduce((sum, turn) => sum + estimateTokens(turn.content), 0);
      expect(used).toBeLessThanOrEqual(budget);
      // Roles alternate, as both providers require.
      for (let i = 1; i < history.length; i += 1) expect(history[i]?.role).not.toBe(history[i - 1]?.role);

      // With no room beyond the system prompt, the message to answer is still sent.
      await setLimits((await chat.storedThread(threadId)).experiment_id, { historyTokens: 1 });
      await chat.send(user, threadId, 'Last one');
      expect(model.calls.at(-1)?.history).toEqual([{ role: 'user', content: 'Last one' }]);
    });
  });

  describe('tokens per participant', () => {
    it('ends the chat once the participant’s replies have used the ceiling', async () => {
      const { user, threadId } = await chat.startThread('mmr', { chat_participant_tokens: 2000 });
      realReplies();
      expect((await chat.send(user, threadId, 'One')).statusCode).toBe(200);
      expect((await thread(user, threadId)).progress.closed).toBeNull();
      expect((await chat.send(user, threadId, 'Two')).statusCode).toBe(200);
      expect(Number((await chat.storedThread(threadId)).tokens_used)).toBe(3000);
      expect((await thread(user, threadId)).progress.closed).toEqual({ reason: 'token_limit' });
      expect(expectJson(await chat.send(user, threadId, 'Three'), 409)).toEqual({
        error: CHAT_CLOSED_TEXT.token_limit,
        code: 'CHAT_CLOSED',
      });
    });
  });

  describe('experiment budget', () => {
    it('warns admins at 80%, stops every chat of the experiment at 100%, and keeps ended chats ended', async () => {
      // claude-sonnet-4-5 at $3 / $15 per million tokens: each reply of REAL_INFO costs $0.0081.
      const a = await chat.startThread('mmr', { chat_budget_usd: 0.01 });
      const b = await chat.joinExperiment(a.experimentId, 'control');
      realReplies();
      expect(expectJson<ChatLimitsReply>(await limitsOf(a.experimentId), 200).budget).toEqual({
        state: 'ok',
        spentUsd: 0,
        budgetUsd: 0.01,
        admitting: true,
      });

      await chat.send(a.user, a.threadId, 'First');
      const warned = expectJson<ChatLimitsReply>(await limitsOf(a.experimentId), 200).budget;
      expect(warned.state).toBe('warning');
      expect(warned.spentUsd).toBeCloseTo(0.0081, 6);
      const system = expectJson<SystemInfo>(
        await t().app.inject({ method: 'GET', url: '/api/admin/system', headers: admin.headers }),
        200,
      );
      expect(system.budgetAlerts).toContainEqual(
        expect.objectContaining({ experimentId: a.experimentId, state: 'warning', budgetUsd: 0.01 }),
      );

      await chat.send(a.user, a.threadId, 'Second');
      expect(expectJson<ChatLimitsReply>(await limitsOf(a.experimentId), 200).budget.state).toBe('stopped');
      expect((await thread(a.user, a.threadId)).progress.closed).toEqual({ reason: 'budget' });

      // Another participant of the same experiment: no greeting and no reply is generated any more.
      const calls = model.calls.length;
      expect((await thread(b.user, b.threadId)).progress.closed).toEqual({ reason: 'budget' });
      expect(expectJson(await chat.initial(b.user, b.threadId), 409)).toEqual({
        error: CHAT_CLOSED_TEXT.budget,
        code: 'CHAT_CLOSED',
      });
      expect(expectJson<{ code: string }>(await chat.send(b.user, b.threadId, 'Hello?'), 409).code).toBe('CHAT_CLOSED');
      expect(model.calls).toHaveLength(calls);

      // Raising the budget lets new chats start; chats that already ended stay ended (their participants moved on).
      await setLimits(a.experimentId, { budgetUsd: 1 });
      expect((await thread(a.user, a.threadId)).progress.closed).toEqual({ reason: 'budget' });
      const c = await chat.joinExperiment(a.experimentId);
      expect((await chat.send(c.user, c.threadId, 'Hello')).statusCode).toBe(200);
    });

    it('applies the environment’s budget to experiments that set none', async () => {
      const defaults = await chat.startThread();
      const reply = expectJson<ChatLimitsReply>(await limitsOf(defaults.experimentId), 200);
      expect(reply.defaults.budgetUsd).toBeNull();
      expect(reply.budget.state).toBe('none');
    });
  });

  describe('after completion', () => {
    it('closes the chat once the participant’s completion is recorded', async () => {
      const { user, threadId, experimentId } = await chat.startThread();
      await chat.initial(user, threadId);
      await t()
        .database.db.updateTable('assignments')
        .set({ completed_at: t().clock.now.toISOString(), completion_pathway: 'complete' })
        .where('user_id', '=', user.id)
        .where('experiment_id', '=', experimentId)
        .execute();
      expect(expectJson(await chat.send(user, threadId, 'One more thing'), 409)).toEqual({
        error: CHAT_CLOSED_TEXT.completed,
        code: 'CHAT_CLOSED',
      });
      expect((await thread(user, threadId)).progress.closed).toEqual({ reason: 'completed' });
      expect((await chat.storedMessages(threadId)).filter((r) => r.role === 'user')).toEqual([]);
    });
  });

  describe('the admin route', () => {
    it('shows defaults, the experiment’s own values and what applies; sets, and resets with null', async () => {
      const { user, threadId, experimentId } = await chat.startThread();
      const before = expectJson<ChatLimitsReply>(await limitsOf(experimentId), 200);
      const defaults = {
        maxMessages: 30,
        maxMessageChars: 1000,
        replyTokens: 1024,
        historyTokens: 8000,
        participantTokens: 150_000,
        budgetUsd: null,
        admitPercent: 95,
      };
      expect(before).toEqual({
        defaults,
        overrides: {
          maxMessages: null,
          maxMessageChars: null,
          replyTokens: null,
          historyTokens: null,
          participantTokens: null,
          budgetUsd: null,
          admitPercent: null,
        },
        effective: defaults,
        budget: { state: 'none', spentUsd: 0, budgetUsd: null, admitting: true },
      });
      const set = expectJson<ChatLimitsReply>(
        await setLimits(experimentId, { maxMessageChars: 10, budgetUsd: 2.5 }),
        200,
      );
      expect(set.overrides).toMatchObject({ maxMessageChars: 10, budgetUsd: 2.5, maxMessages: null });
      expect(set.effective).toMatchObject({ maxMessageChars: 10, budgetUsd: 2.5, maxMessages: 30 });
      expect(set.budget.state).toBe('ok');
      expect(expectJson<{ code: string }>(await chat.send(user, threadId, 'x'.repeat(11)), 400).code).toBe(
        'MESSAGE_TOO_LONG',
      );
      const reset = expectJson<ChatLimitsReply>(await setLimits(experimentId, { maxMessageChars: null }), 200);
      expect(reset.effective.maxMessageChars).toBe(1000);
      expect(reset.overrides.budgetUsd).toBe(2.5);
    });

    it('refuses bad values with 400 and changes nothing', async () => {
      const { experimentId } = await chat.participant();
      for (const overrides of [
        { maxMessages: 0 },
        { maxMessages: 2.5 },
        { maxMessageChars: 10_001 },
        { budgetUsd: -1 },
        { budgetUsd: 0 },
        { replyTokens: '100' },
        { unknown: 1 },
      ]) {
        const res = await setLimits(experimentId, overrides);
        expect(expectJson<{ code: string }>(res, 400).code).toBe('VALIDATION_FAILED');
      }
      const after = expectJson<ChatLimitsReply>(await limitsOf(experimentId), 200);
      expect(Object.values(after.overrides).every((v) => v === null)).toBe(true);
    });

    it('is for admins only; an unknown experiment is 404', async () => {
      const { user, experimentId } = await chat.participant();
      expect(expectJson<{ code: string }>(await limitsOf(experimentId, user), 403).code).toBe('FORBIDDEN');
      expect(expectJson<{ code: string }>(await setLimits(experimentId, { maxMessages: 5 }, user), 403).code).toBe(
        'FORBIDDEN',
      );
      const anonymous = await t().app.inject({ method: 'GET', url: `/api/experiments/${experimentId}/chat-limits` });
      expect(anonymous.statusCode).toBe(401);
      const unknown = '00000000-0000-4000-8000-000000000000';
      expect((await limitsOf(unknown)).statusCode).toBe(404);
      expect((await setLimits(unknown, { maxMessages: 5 })).statusCode).toBe(404);
    });
  });
});

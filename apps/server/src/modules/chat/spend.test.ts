import { CHAT_CLOSED_TEXT, type ChatLimitsReply, type ThreadMessagesReply } from '@studychat/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, testConfig, useTestApp, type TestUser } from '../../../test/app.js';
import { chatClient, events, gate, streamedError, SwitchableModel } from '../../../test/chat.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { ChatModelError } from '../../llm/errors.js';
import { MODEL_ERRORS } from './chat.generate.js';
import { BUDGET_BUSY_MESSAGE, MAX_GREETING_ATTEMPTS } from './chat.service.js';
import { maxCallCostUsd } from './spend.js';

/** $1 per thousand tokens either way: a reply's maximum is a few cents, so small budgets are reached at once. */
const PRICE = { inputPerMTok: 1000, outputPerMTok: 1000 };
const PRICES = { switchable: PRICE };

// Spending limits that hold whatever the provider reports (issue 28, docs/decisions/0073), on both databases.
describe.each(TEST_DIALECTS)('chat spending on %s', (dialect) => {
  const model = new SwitchableModel();
  const t = useTestApp(dialect, { deps: { llm: model }, config: { llm: { ...testConfig().llm, prices: PRICES } } });
  const chat = chatClient(t);
  let admin: TestUser;

  beforeEach(async () => {
    model.reset();
    admin ??= await createAndLogin(t(), { isAdmin: true });
  });

  const thread = async (user: TestUser, threadId: string) =>
    expectJson<ThreadMessagesReply>(await chat.messages(user, threadId), 200);
  const spentOf = async (experimentId: string) =>
    expectJson<ChatLimitsReply>(
      await t().app.inject({
        method: 'GET',
        url: `/api/experiments/${experimentId}/chat-limits`,
        headers: admin.headers,
      }),
      200,
    ).budget.spentUsd;
  /** A reply whose provider reports no token usage at all (a local server, a proxy that drops it). */
  const noUsage = (text: string) => {
    model.behaviour = async (_request, onText) => {
      onText(text);
      return { model: 'switchable', inputTokens: null, outputTokens: null, stopReason: 'stop', thinking: [] };
    };
  };

  describe('a provider that reports no usage', () => {
    it('is counted by an estimate, flagged, so the token limit still ends the chat', async () => {
      const { user, threadId } = await chat.startThread('mmr', { chat_participant_tokens: 5000 });
      noUsage('A reply of some length. '.repeat(20));
      expect((await chat.send(user, threadId, 'First question')).statusCode).toBe(200);
      const reply = (await chat.storedMessages(threadId)).at(-1);
      expect(Boolean(reply?.usage_estimated)).toBe(true);
      expect(reply?.input_tokens).toBeGreaterThan(0);
      // history.ts's estimate: 480 characters / 3 + 4.
      expect(reply?.output_tokens).toBe(164);
      expect(Number(reply?.cost_usd)).toBeCloseTo(((reply?.input_tokens ?? 0) + 164) / 1000, 10);
      const used = Number((await chat.storedThread(threadId)).tokens_used);
      expect(used).toBe((reply?.input_tokens ?? 0) + 164);

      // Replies go on until the estimates reach the participant's limit; then the chat ends as any limit ends it.
      for (let n = 0; n < 20 && (await thread(user, threadId)).progress.closed === null; n += 1) {
        expect((await chat.send(user, threadId, `Question ${n}`)).statusCode).toBe(200);
      }
      expect((await thread(user, threadId)).progress.closed).toEqual({ reason: 'token_limit' });
      expect(Number((await chat.storedThread(threadId)).tokens_used)).toBeGreaterThanOrEqual(5000);
    });

    it('stores reported counts as they are, not flagged', async () => {
      const { user, threadId } = await chat.startThread();
      model.behaviour = async (_request, onText) => {
        onText('Answer.');
        return { model: 'switchable', inputTokens: 100, outputTokens: 20, stopReason: 'stop', thinking: [] };
      };
      await chat.send(user, threadId, 'Hello');
      const reply = (await chat.storedMessages(threadId)).at(-1);
      expect(reply).toMatchObject({ input_tokens: 100, output_tokens: 20 });
      expect(Boolean(reply?.usage_estimated)).toBe(false);
      expect(Number(reply?.cost_usd)).toBeCloseTo(0.12, 10);
    });

    it('counts nothing for a request the provider refused before any text', async () => {
      const { user, threadId } = await chat.startThread('mmr', { chat_budget_usd: 100 });
      model.behaviour = async () => {
        throw new ChatModelError('rejected', 'bad request', { status: 400 });
      };
      await chat.send(user, threadId, 'Hello');
      const stored = await chat.storedThread(threadId);
      expect(Number(stored.tokens_used)).toBe(0);
      expect(Number(stored.cost_usd)).toBe(0);
      // Its reservation is released with the lease, and nothing stays reserved on the thread.
      expect(Number(stored.reserved_usd)).toBe(0);
      expect(stored.reply_lock_id).toBeNull();
    });
  });

  describe('greetings', () => {
    it('count against the participant and the budget, and one the provider cuts off is tried at most three times', async () => {
      const { user, threadId, experimentId } = await chat.startThread('mmr', { chat_budget_usd: 100 });
      model.behaviour = async (_request, onText) => {
        onText('Hello, I am ');
        const error = new ChatModelError('connection', 'terminated');
        error.afterFirstToken = true;
        throw error;
      };
      for (let load = 0; load < 30; load += 1) {
        const res = await chat.initial(user, threadId);
        expect(streamedError(res)).toBe(MODEL_ERRORS.initial);
      }
      expect(model.calls).toHaveLength(MAX_GREETING_ATTEMPTS);
      const greetings = (await chat.storedMessages(threadId)).filter((m) => Boolean(m.is_initial));
      expect(greetings).toHaveLength(MAX_GREETING_ATTEMPTS);
      for (const greeting of greetings) {
        expect(greeting).toMatchObject({ status: 'error', content: 'Hello, I am ' });
        expect(Boolean(greeting.usage_estimated)).toBe(true);
      }
      const stored = await chat.storedThread(threadId);
      const tokens = greetings.reduce((sum, g) => sum + (g.input_tokens ?? 0) + (g.output_tokens ?? 0), 0);
      expect(Number(stored.tokens_used)).toBe(tokens);
      expect(await spentOf(experimentId)).toBeCloseTo(tokens / 1000, 8);

      // The chat goes on without a greeting (the page shows its canned one).
      model.reset();
      expect((await chat.send(user, threadId, 'Hello')).statusCode).toBe(200);
      expect(model.calls.at(-1)?.history).toEqual([{ role: 'user', content: 'Hello' }]);
    });

    it('are not generated once the budget is spent', async () => {
      const { user, threadId, experimentId } = await chat.startThread('mmr', { chat_budget_usd: 0.01 });
      await t()
        .database.db.updateTable('chat_threads')
        .set({ cost_usd: 0.01 })
        .where('experiment_id', '=', experimentId)
        .execute();
      expect(expectJson(await chat.initial(user, threadId), 409)).toEqual({
        error: CHAT_CLOSED_TEXT.budget,
        code: 'CHAT_CLOSED',
      });
      expect(model.calls).toHaveLength(0);
    });
  });

  describe('reserving spend before a call', () => {
    /** What one reply to `message` may cost at most, from the request the model gets (one probe reply). */
    async function oneReplyMax(message: string): Promise<number> {
      const probe = await chat.startThread();
      await chat.send(probe.user, probe.threadId, message);
      const request = model.calls.at(-1);
      if (!request) throw new Error('no request');
      model.reset();
      return maxCallCostUsd(model, request, PRICE);
    }

    it('keeps 20 replies at once within the budget plus one reply’s maximum', async () => {
      const message = 'Is the vaccine safe for my child?';
      const max = await oneReplyMax(message);
      const budget = max * 5.5;
      const first = await chat.startThread('mmr', { chat_budget_usd: budget });
      const others = await Promise.all(Array.from({ length: 19 }, () => chat.joinExperiment(first.experimentId)));
      const all = [first, ...others];

      // Every admitted reply waits in the model until each of the 20 requests was admitted or refused, then all
      // report the most they could use: the worst case for the budget.
      const release = gate();
      let decided = 0;
      const settle = () => {
        if (model.calls.length + decided === all.length) release.open();
      };
      model.behaviour = async (request, onText) => {
        settle();
        await release.opened;
        onText('An answer.');
        return {
          model: 'switchable',
          inputTokens: Math.round((max * 1000 - model.maxOutputTokens(request)) * 0.999),
          outputTokens: model.maxOutputTokens(request),
          stopReason: 'max_tokens',
          thinking: [],
        };
      };
      const replies = await Promise.all(
        all.map(async (p) => {
          const res = chat.send(p.user, p.threadId, message);
          // A refusal is decided before any stream opens; an admitted reply waits in the model.
          void res.then((r) => {
            if (r.statusCode !== 200) {
              decided += 1;
              settle();
            }
          });
          return res;
        }),
      );

      const admitted = replies.filter((r) => r.statusCode === 200);
      const busy = replies.filter((r) => r.statusCode === 409);
      expect(admitted.length + busy.length).toBe(20);
      expect(admitted).toHaveLength(6);
      for (const res of busy) expect(expectJson(res, 409)).toEqual({ error: BUDGET_BUSY_MESSAGE, code: 'BUDGET_BUSY' });
      for (const res of admitted) expect(events(res).at(-1)).toBe('[DONE]');
      const spent = await spentOf(first.experimentId);
      expect(spent).toBeGreaterThan(budget);
      expect(spent).toBeLessThanOrEqual(budget + max);
      // A refused reply stored nothing: its message may be sent again.
      const refused = all.filter((_, i) => replies[i]?.statusCode === 409);
      for (const p of refused) expect(await chat.storedMessages(p.threadId)).toHaveLength(0);

      // Now settled past the budget: every chat of the experiment ends, and no reply is reserved any more.
      model.reset();
      expect(expectJson<{ code: string }>(await chat.send(first.user, first.threadId, 'More?'), 409).code).toBe(
        'CHAT_CLOSED',
      );
      const reserved = await t()
        .database.db.selectFrom('chat_threads')
        .select('reserved_usd')
        .where('experiment_id', '=', first.experimentId)
        .execute();
      expect(reserved.map((r) => Number(r.reserved_usd))).toEqual(reserved.map(() => 0));
    });

    it('lets a reservation left by a process that died lapse with its reply lease', async () => {
      const max = await oneReplyMax('Hello');
      const a = await chat.startThread('mmr', { chat_budget_usd: max * 1.5 });
      const b = await chat.joinExperiment(a.experimentId);
      // A's process reserved what is left of the budget, took the lease and died.
      const now = t().clock.fn();
      await t()
        .database.db.updateTable('chat_threads')
        .set({
          reserved_usd: max * 1.5,
          reply_lock_id: 'a-dead-process',
          reply_lock_until: new Date(now.getTime() + 10_000).toISOString(),
        })
        .where('id', '=', a.threadId)
        .execute();
      expect(expectJson(await chat.send(b.user, b.threadId, 'Hello'), 409)).toEqual({
        error: BUDGET_BUSY_MESSAGE,
        code: 'BUDGET_BUSY',
      });
      expect(model.calls).toHaveLength(0);
      t().clock.advance(11_000);
      expect((await chat.send(b.user, b.threadId, 'Hello')).statusCode).toBe(200);
      expect(model.calls).toHaveLength(1);
    });
  });
});

import { CHAT_BUSY_TEXT } from '@studychat/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testConfig, useTestApp, type TestApp } from '../../../test/app.js';
import {
  allEvents,
  chatClient,
  gate,
  REAL_INFO,
  streamedError,
  streamedText,
  SwitchableModel,
} from '../../../test/chat.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { startAnthropicFake, type AnthropicFake } from '../../../test/fakes/anthropic-fake.js';
import type { FakeResponse } from '../../../test/fakes/fake-server.js';
import { instantRetryPolicy } from '../../../test/fakes/retry-policy.js';
import { toIso } from '../../db/values.js';
import { createAnthropicModel } from '../../llm/anthropic.model.js';
import { ChatModelError } from '../../llm/errors.js';
import { MODEL_ERRORS } from './chat.service.js';
import { askedToWait, decideTurn, type QueueLimits } from './provider-queue.js';
import type { QueueState } from './provider-queue.repository.js';

// The provider's shared rate limit (issue 32, docs/decisions/0076): a fair queue in the database, the participant
// told the assistant is busy while theirs waits, and a 429 or 529 waited out at the provider's retry-after.

const NOW = Date.parse('2026-11-20T10:00:00.000Z');
const limits = (over: Partial<QueueLimits> = {}): QueueLimits => ({
  concurrency: null,
  tokensPerMinute: null,
  maxWaitMs: 60_000,
  ...over,
});
const turn = (id: string, seq: number, state: 'waiting' | 'running' | 'done', tokens = 100, grantedAt?: number) => ({
  id,
  seq,
  state,
  tokens,
  grantedAt: grantedAt === undefined ? null : new Date(grantedAt).toISOString(),
});

describe('the turn rule', () => {
  it('lets as many run as the concurrency allows, in the order they asked', () => {
    const state: QueueState = {
      pausedUntil: null,
      turns: [turn('a', 1, 'running', 100, NOW), turn('b', 2, 'waiting'), turn('c', 3, 'waiting')],
    };
    expect(decideTurn(state, 'b', NOW, limits({ concurrency: 2 }))).toEqual({ go: true });
    // c is behind b: it waits even though it asks first.
    expect(decideTurn(state, 'c', NOW, limits({ concurrency: 2 }))).toMatchObject({ go: false, position: 1 });
    expect(decideTurn(state, 'b', NOW, limits({ concurrency: 1 }))).toMatchObject({ go: false, position: 0 });
  });

  it("counts the minute's tokens, with the turns ahead, and waits until the oldest leaves the window", () => {
    const state: QueueState = {
      pausedUntil: null,
      turns: [turn('a', 1, 'done', 700, NOW - 50_000), turn('b', 2, 'waiting', 200), turn('c', 3, 'waiting', 200)],
    };
    expect(decideTurn(state, 'b', NOW, limits({ tokensPerMinute: 1000 }))).toEqual({ go: true });
    // The oldest grant leaves the window in 10 s; it asks again within 5 s at most.
    expect(decideTurn(state, 'c', NOW, limits({ tokensPerMinute: 1000 }))).toEqual({
      go: false,
      position: 1,
      waitMs: 5000,
    });
    const later = { ...state, turns: [turn('a', 1, 'done', 700, NOW - 58_000), ...state.turns.slice(1)] };
    expect(decideTurn(later, 'c', NOW, limits({ tokensPerMinute: 1000 }))).toMatchObject({ waitMs: 2000 });
    // A turn larger than the whole limit still goes, alone, at the head of an empty window.
    const big: QueueState = { pausedUntil: null, turns: [turn('d', 1, 'waiting', 5000)] };
    expect(decideTurn(big, 'd', NOW, limits({ tokensPerMinute: 1000 }))).toEqual({ go: true });
  });

  it("waits while the provider's pause lasts", () => {
    const state: QueueState = {
      pausedUntil: new Date(NOW + 3000).toISOString(),
      turns: [turn('a', 1, 'waiting')],
    };
    expect(decideTurn(state, 'a', NOW, limits({ concurrency: 5 }))).toEqual({ go: false, position: 0, waitMs: 3000 });
  });

  it('waits on a 429 or 529 before any text (retry-after, else back-off), not on other failures', () => {
    const half = () => 0.5;
    const limited = new ChatModelError('rate_limited', '429', { status: 429, retryAfterMs: 2000 });
    expect(askedToWait(limited, 1, half)).toBe(2000);
    const overloaded = new ChatModelError('unavailable', '529', { status: 529, providerCode: 'overloaded_error' });
    expect(askedToWait(overloaded, 1, half)).toBe(750);
    expect(askedToWait(overloaded, 3, half)).toBe(3000);
    const cut = new ChatModelError('rate_limited', '429', { status: 429 });
    cut.afterFirstToken = true;
    expect(askedToWait(cut, 1, half)).toBeNull();
    expect(askedToWait(new ChatModelError('unavailable', '500', { status: 500 }), 1, half)).toBeNull();
    expect(askedToWait(new Error('other'), 1, half)).toBeNull();
  });
});

/** A sleep that moves the test clock by at most `step` ms and lets the event loop run: no test waits. */
function testSleep(t: () => TestApp, step: { ms: number }) {
  return async (ms: number) => {
    t().clock.advance(Math.min(ms, step.ms));
    await new Promise((resolve) => setImmediate(resolve));
  };
}

/**
 * Lets the event loop run until `ready` holds: each check after a turn of the loop, for up to 10 s of real time (a
 * reply's database round trips on a loaded PostgreSQL take more turns than any fixed count allows).
 */
async function until(ready: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (await ready()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('never ready');
}

describe.each(TEST_DIALECTS)('the shared rate limit on %s', (dialect) => {
  const model = new SwitchableModel();
  const step = { ms: 1 };
  const config = testConfig();
  const t: () => TestApp = useTestApp(dialect, {
    config: { llm: { ...config.llm, concurrency: 1, queueMaxWaitMs: 60_000 } },
    deps: { llm: model, sleep: (ms) => testSleep(t, step)(ms) },
  });
  const chat = chatClient(t);
  let fake: AnthropicFake;
  let queue: FakeResponse[] = [];

  beforeAll(async () => {
    fake = await startAnthropicFake(() => queue.shift() ?? { kind: 'stream', text: ['Fine.'] });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    model.reset();
    step.ms = 1;
    queue = [];
  });

  it('a reply over the concurrency waits its turn, told the assistant is busy, then is answered', async () => {
    const a = await chat.startThread();
    const b = await chat.startThread();
    const hold = gate();
    let inFlight = 0;
    let most = 0;
    model.behaviour = async (request, onText) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      if (model.calls.length === 1) await hold.opened;
      onText('Answer.');
      inFlight -= 1;
      return REAL_INFO;
    };
    const first = chat.send(a.user, a.threadId, 'First');
    await until(() => model.calls.length === 1);
    const second = chat.send(b.user, b.threadId, 'Second');
    // b's turn is in the queue behind a's running one.
    const waiting = () =>
      t()
        .database.db.selectFrom('llm_turns')
        .select('state')
        .where('thread_id', '=', b.threadId)
        .where('state', '=', 'waiting')
        .executeTakeFirst();
    await until(async () => (await waiting()) !== undefined);
    expect(model.calls).toHaveLength(1);
    hold.open();
    const [resA, resB] = await Promise.all([first, second]);
    expect(streamedText(resA)).toBe('Answer.');
    expect(streamedText(resB)).toBe('Answer.');
    expect(streamedError(resB)).toBeUndefined();
    const events = allEvents(resB);
    expect(events[0]).toBe(JSON.stringify({ busy: CHAT_BUSY_TEXT }));
    expect(events.filter((e) => e.includes('"busy"'))).toHaveLength(1);
    expect(most).toBe(1);
    const replyB = (await chat.storedMessages(b.threadId)).at(-1);
    expect(replyB).toMatchObject({ status: 'complete' });
    expect(replyB?.queue_ms).toBeGreaterThan(0);
    const replyA = (await chat.storedMessages(a.threadId)).at(-1);
    expect(replyA?.queue_ms).toBeNull();
    // Both turns are done, kept for the minute's window.
    const turns = await t().database.db.selectFrom('llm_turns').select('state').execute();
    expect(turns.every((r) => r.state === 'done')).toBe(true);
  });

  it("a 429 pauses every reply for the provider's retry-after, then the same reply is answered", async () => {
    step.ms = 500;
    const adapter = createAnthropicModel({
      apiKey: 'k',
      baseUrl: fake.url,
      model: 'claude-sonnet-5',
      maxTokens: 200,
      thinkingBudget: 0,
      timeoutMs: 2000,
      retry: instantRetryPolicy(1000).policy,
    });
    model.behaviour = (request, onText) => adapter.streamReply(request, onText);
    const before = fake.requests.length;
    queue = [
      { kind: 'status', status: 429, retryAfter: '3' },
      { kind: 'status', status: 529 },
      { kind: 'stream', text: ['Here ', 'it is.'] },
    ];
    const { user, threadId } = await chat.startThread();
    const started = t().clock.now.getTime();
    const res = await chat.send(user, threadId, 'Hello?');
    expect(streamedText(res)).toBe('Here it is.');
    expect(allEvents(res)[0]).toBe(JSON.stringify({ busy: CHAT_BUSY_TEXT }));
    // One call each: the adapter left the waits to the queue (its own retry budget is 1 s).
    expect(fake.requests.length - before).toBe(3);
    const provider = await t()
      .database.db.selectFrom('llm_providers')
      .select('paused_until')
      .where('provider', '=', 'scripted')
      .executeTakeFirstOrThrow();
    // Paused for the 429's retry-after (3 s), then the 529's back-off after it.
    expect(Date.parse(toIso(provider.paused_until ?? ''))).toBeGreaterThan(started + 3000);
    const reply = (await chat.storedMessages(threadId)).at(-1);
    expect(reply).toMatchObject({ status: 'complete', content: 'Here it is.' });
    expect(reply?.queue_ms).toBeGreaterThanOrEqual(3000);
  });

  it('gives up as unavailable once the next wait would pass the longest wait', async () => {
    step.ms = 10_000;
    model.behaviour = () =>
      Promise.reject(new ChatModelError('rate_limited', '429', { status: 429, retryAfterMs: 30_000 }));
    const { user, threadId } = await chat.startThread();
    const res = await chat.send(user, threadId, 'Hello?');
    expect(streamedError(res)).toBe(MODEL_ERRORS.unavailable);
    // First asked, told to wait 30 s (pause), asked again twice more: 60 s is the limit.
    expect(model.calls.length).toBeGreaterThanOrEqual(2);
    const reply = (await chat.storedMessages(threadId)).at(-1);
    expect(reply).toMatchObject({ status: 'error', cost_usd: null });
  });
});

describe.each(TEST_DIALECTS)('a 429 without a shared limit on %s', (dialect) => {
  const model = new SwitchableModel();
  const step = { ms: 10_000 };
  const t: () => TestApp = useTestApp(dialect, { deps: { llm: model, sleep: (ms) => testSleep(t, step)(ms) } });
  const chat = chatClient(t);

  it("is waited out at the provider's retry-after in this process, and answered", async () => {
    let calls = 0;
    model.behaviour = async (_request, onText) => {
      calls += 1;
      if (calls === 1) throw new ChatModelError('rate_limited', '429', { status: 429, retryAfterMs: 4000 });
      onText('Done.');
      return REAL_INFO;
    };
    const { user, threadId } = await chat.startThread();
    const res = await chat.send(user, threadId, 'Hello?');
    expect(streamedText(res)).toBe('Done.');
    expect(allEvents(res)[0]).toBe(JSON.stringify({ busy: CHAT_BUSY_TEXT }));
    expect((await chat.storedMessages(threadId)).at(-1)?.queue_ms).toBe(4000);
    // No queue rows without a limit.
    expect(await t().database.db.selectFrom('llm_turns').selectAll().execute()).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestDatabase } from '../test/databases.js';
import { buildExperiment, buildThread, buildUser } from '../test/factories.js';
import { startAnthropicFake } from '../test/fakes/anthropic-fake.js';
import { createAnthropicModel } from '../src/llm/anthropic.model.js';
import type { ChatTurn } from '../src/llm/chat-model.js';
import { costOf, DEFAULT_PRICES, priceFor } from '../src/llm/pricing.js';
import { defaultRetryPolicy } from '../src/llm/retry.js';
import { inTurn, type TurnStats } from '../src/modules/chat/provider-queue.js';

// Issue 32's budgets (docs/decisions/0076): what a 10-turn chat on a 2,500-token prompt costs with prompt caching
// against the same chat at the uncached price, and 200 chats starting within a minute against a provider that takes
// a fraction of that rate, through the shared queue on a real database: every reply answered, and the waits.

const PROMPT = `You are a careful assistant for parents. ${'Background the assistant keeps in mind. '.repeat(245)}`;

/** A 10-turn conversation through the Anthropic adapter against the fake that caches as Anthropic documents. */
export async function runCostBench(): Promise<{
  turns: number;
  billedUsd: number;
  uncachedUsd: number;
  ratio: number;
}> {
  const fake = await startAnthropicFake(() => ({
    kind: 'stream',
    text: ['Thank you for the question. ', 'Here is what the evidence says.'],
    outputTokens: 80,
    cached: true,
  }));
  try {
    const model = createAnthropicModel({
      apiKey: 'bench',
      baseUrl: fake.url,
      model: 'claude-sonnet-4-5',
      maxTokens: 300,
      thinkingBudget: 0,
      timeoutMs: 5000,
      retry: defaultRetryPolicy(1000),
    });
    const history: ChatTurn[] = [];
    let billed = 0;
    let uncached = 0;
    // The greeting, then ten participant messages.
    for (let turn = 0; turn <= 10; turn += 1) {
      if (turn > 0)
        history.push({ role: 'user', content: `Question ${turn}: what about side effects at age ${turn}?` });
      let text = '';
      const info = await model.streamReply(
        { system: PROMPT, history, condition: 'mmr', cacheKey: 'bench', waitsItself: true },
        (d) => (text += d),
      );
      history.push({ role: 'assistant', content: text });
      const price = priceFor(info.model, DEFAULT_PRICES);
      if (!price || info.inputTokens === null || info.outputTokens === null) throw new Error('no usage');
      const usage = {
        inputTokens: info.inputTokens,
        outputTokens: info.outputTokens,
        cacheWriteTokens: info.cacheWriteTokens ?? 0,
        cacheReadTokens: info.cacheReadTokens ?? 0,
      };
      billed += costOf(usage, price);
      uncached += costOf({ inputTokens: usage.inputTokens, outputTokens: usage.outputTokens }, price);
    }
    return {
      turns: 10,
      billedUsd: Math.round(billed * 1e6) / 1e6,
      uncachedUsd: Math.round(uncached * 1e6) / 1e6,
      ratio: Math.round((billed / uncached) * 1000) / 1000,
    };
  } finally {
    await fake.close();
  }
}

/**
 * A provider that takes at most `capacity` requests at once and answers any more with 429 and retry-after 1 s; each
 * reply streams for `replyMs`.
 */
async function limitedProvider(capacity: number, replyMs: number) {
  let inFlight = 0;
  let refused = 0;
  let served = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (inFlight >= capacity) {
        refused += 1;
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'Too many' } }));
        return;
      }
      inFlight += 1;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const ev = (type: string, data: unknown) => res.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
      const usage = { input_tokens: 50, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 };
      const msg = { id: 'm', type: 'message', role: 'assistant', content: [], model: 'claude-sonnet-4-5', usage };
      ev('message_start', { type: 'message_start', message: { ...msg, stop_reason: null, stop_sequence: null } });
      ev('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
      setTimeout(() => {
        ev('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'OK' } });
        ev('content_block_stop', { type: 'content_block_stop', index: 0 });
        ev('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 5 } });
        ev('message_stop', { type: 'message_stop' });
        res.end();
        inFlight -= 1;
        served += 1;
      }, replyMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats: () => ({ refused, served }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/**
 * `chats` chats whose first reply starts within `seconds`, through the shared queue (concurrency `capacity`) on a
 * real database, against a provider that serves `capacity` at a time: failed replies, the waits, and the 429s.
 */
export async function runQueueBench(
  options: { chats?: number; seconds?: number; capacity?: number; replyMs?: number; databaseUrl?: string } = {},
) {
  const chats = options.chats ?? 200;
  const seconds = options.seconds ?? 60;
  const capacity = options.capacity ?? 10;
  const replyMs = options.replyMs ?? 4000;
  if (options.databaseUrl) process.env.TEST_DATABASE_URL = options.databaseUrl;
  const database = await createTestDatabase(options.databaseUrl ? 'postgres' : 'sqlite');
  const provider = await limitedProvider(capacity, replyMs);
  const model = createAnthropicModel({
    apiKey: 'bench',
    baseUrl: provider.url,
    model: 'claude-sonnet-4-5',
    maxTokens: 300,
    thinkingBudget: 0,
    timeoutMs: 30_000,
    retry: defaultRetryPolicy(20_000),
  });
  const { db } = database;
  const experiment = buildExperiment();
  const experimentId = String(experiment.id);
  await db.insertInto('experiments').values(experiment).execute();
  const waits: number[] = [];
  let failed = 0;
  let timesToldToWait = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: chats }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, (i * seconds * 1000) / chats));
      const user = buildUser();
      await db.insertInto('users').values(user).execute();
      const leaseId = randomUUID();
      // The reply's lease, held for the bench: the queue keeps a turn while its thread's lease is live.
      const thread = buildThread(
        { userId: String(user.id), experimentId },
        { reply_lock_id: leaseId, reply_lock_until: new Date(Date.now() + 3_600_000).toISOString() },
      );
      await db.insertInto('chat_threads').values(thread).execute();
      const threadId = String(thread.id);
      const stats: TurnStats = { waitedMs: 0, waits: 0 };
      try {
        await inTurn(
          {
            db,
            clock: () => new Date(),
            newId: randomUUID,
            random: Math.random,
            sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
            limits: { concurrency: capacity, tokensPerMinute: null, maxWaitMs: 600_000 },
            provider: 'anthropic',
            threadId,
            leaseId,
            tokens: 100,
            onWait: () => (timesToldToWait += 1),
          },
          () =>
            model.streamReply(
              { system: 'Bench.', history: [{ role: 'user', content: 'Hi' }], condition: 'mmr', waitsItself: true },
              () => undefined,
            ),
          () => null,
          stats,
        );
      } catch {
        failed += 1;
      }
      waits.push(stats.waitedMs);
    }),
  );
  const elapsedS = Math.round((performance.now() - started) / 100) / 10;
  await provider.close();
  await database.close();
  return {
    chats,
    startedWithinS: seconds,
    provider: { atOnce: capacity, replyS: replyMs / 1000, ratePerMinute: Math.round((capacity * 60_000) / replyMs) },
    failedReplies: failed,
    providerRefusals429: provider.stats().refused,
    waitedMs: {
      waited: waits.filter((w) => w > 0).length,
      p50: Math.round(percentile(waits, 50)),
      p90: Math.round(percentile(waits, 90)),
      max: Math.round(Math.max(...waits)),
    },
    timesToldToWait,
    elapsedS,
  };
}

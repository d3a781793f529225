import { studyDefinition, type StudyDefinition } from '@studychat/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { chatClient, streamedError, streamedText, SwitchableModel } from '../../../test/chat.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { startAnthropicFake, type AnthropicFake, type AnthropicUsage } from '../../../test/fakes/anthropic-fake.js';
import { startOpenAiFake, type OpenAiFake, type OpenAiUsage } from '../../../test/fakes/openai-fake.js';
import { instantRetryPolicy } from '../../../test/fakes/retry-policy.js';
import { toNumber } from '../../db/values.js';
import { createAnthropicModel } from '../../llm/anthropic.model.js';
import type { ChatModel } from '../../llm/chat-model.js';
import { createOpenAiModel } from '../../llm/openai.model.js';

// The chat's cost as the provider bills it (issue 32, docs/decisions/0076): a 10-turn conversation on a
// 2,500-token prompt through the real adapters against fake providers that cache prompts as Anthropic and OpenAI
// document it; the requests carry the cache breakpoints (Anthropic) or a stable prompt_cache_key (OpenAI), and
// each stored cost equals the fake's bill within 1%.

/** About 2,500 tokens of system prompt (the fakes count four characters a token). */
const LONG_PROMPT = `${studyDefinition.chat.conditions.mmr?.systemPrompt ?? ''}\n\n${'Background for the conversation. '.repeat(250)}`;
const study: StudyDefinition = structuredClone(studyDefinition);
const mmr = study.chat.conditions.mmr;
if (mmr) mmr.systemPrompt = LONG_PROMPT;

/** The providers' published rates for the fakes' models, USD per million tokens (independent of pricing.ts). */
const SONNET_4_5 = { input: 3, write: 3.75, read: 0.3, output: 15 };
const GPT_4O_MINI = { input: 0.15, cached: 0.075, output: 0.6 };

const anthropicBill = (u: AnthropicUsage) =>
  (u.input_tokens * SONNET_4_5.input +
    u.cache_creation_input_tokens * SONNET_4_5.write +
    u.cache_read_input_tokens * SONNET_4_5.read +
    u.output_tokens * SONNET_4_5.output) /
  1e6;
const anthropicUncached = (u: AnthropicUsage) =>
  ((u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens) * SONNET_4_5.input +
    u.output_tokens * SONNET_4_5.output) /
  1e6;
const openAiBill = (u: OpenAiUsage) =>
  ((u.prompt_tokens - u.cached_tokens) * GPT_4O_MINI.input +
    u.cached_tokens * GPT_4O_MINI.cached +
    u.completion_tokens * GPT_4O_MINI.output) /
  1e6;

const REPLY = ['Thank you for asking. ', 'Here is what the evidence says ', 'about that question.'];
const TURNS = 10;

describe.each(TEST_DIALECTS)('the chat cost as billed, on %s', (dialect) => {
  const model = new SwitchableModel();
  const t = useTestApp(dialect, { deps: { llm: model, studies: () => Promise.resolve(study) } });
  const chat = chatClient(t);
  let anthropic: AnthropicFake;
  let openai: OpenAiFake;
  let adapters: { anthropic: ChatModel; openai: ChatModel };

  beforeAll(async () => {
    anthropic = await startAnthropicFake(() => ({ kind: 'stream', text: REPLY, outputTokens: 60, cached: true }));
    openai = await startOpenAiFake(() => ({ kind: 'stream', text: REPLY, outputTokens: 60, cached: true }));
    const common = { apiKey: 'test-key', maxTokens: 500, timeoutMs: 2000, retry: instantRetryPolicy(1000).policy };
    adapters = {
      anthropic: createAnthropicModel({
        ...common,
        baseUrl: anthropic.url,
        model: 'claude-sonnet-5',
        thinkingBudget: 0,
      }),
      openai: createOpenAiModel({ ...common, baseUrl: openai.url, model: 'gpt-4o-mini' }),
    };
  });
  afterAll(async () => {
    await anthropic.close();
    await openai.close();
  });
  beforeEach(() => model.reset());

  /** The greeting and TURNS participant messages, each answered. */
  async function converse(): Promise<{ threadId: string }> {
    const { user, threadId } = await chat.startThread('mmr');
    const greeting = await chat.initial(user, threadId);
    expect(streamedError(greeting)).toBeUndefined();
    for (let turn = 1; turn <= TURNS; turn += 1) {
      const res = await chat.send(user, threadId, `Question ${turn}: is the vaccine safe for my child?`);
      expect(streamedText(res)).toBe(REPLY.join(''));
    }
    return { threadId };
  }

  it('Anthropic: breakpoints on the system prompt and the conversation so far; each cost equals the bill', async () => {
    model.behaviour = (request, onText) => adapters.anthropic.streamReply(request, onText);
    const sentBefore = anthropic.requests.length;
    const { threadId } = await converse();

    const requests = anthropic.requests.slice(sentBefore) as {
      system: { type: string; text: string; cache_control?: unknown }[];
      messages: { role: string; content: string | { cache_control?: unknown }[] }[];
    }[];
    expect(requests).toHaveLength(TURNS + 1);
    for (const request of requests) {
      expect(request.system).toEqual([{ type: 'text', text: LONG_PROMPT, cache_control: { type: 'ephemeral' } }]);
      const last = request.messages.at(-1);
      expect(Array.isArray(last?.content) && last.content[0]?.cache_control).toEqual({ type: 'ephemeral' });
      // Only the last message carries one: two breakpoints of the four allowed.
      expect(request.messages.slice(0, -1).every((m) => typeof m.content === 'string')).toBe(true);
    }

    const usages = anthropic.usages.slice(sentBefore);
    // Every call after the first reads the conversation so far from the cache.
    expect(usages.filter((u) => u.cache_read_input_tokens > 0)).toHaveLength(TURNS);
    expect(usages[0]?.cache_creation_input_tokens).toBeGreaterThan(2400);

    const replies = (await chat.storedMessages(threadId)).filter((m) => m.role === 'assistant');
    expect(replies).toHaveLength(TURNS + 1);
    replies.forEach((reply, i) => {
      const usage = usages[i];
      if (!usage) throw new Error('no usage');
      const bill = anthropicBill(usage);
      expect(Math.abs(toNumber(reply.cost_usd ?? 0) - bill) / bill).toBeLessThan(0.01);
      expect(reply).toMatchObject({
        input_tokens: usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens,
        uncached_input_tokens: usage.input_tokens,
        cache_write_tokens: usage.cache_creation_input_tokens,
        cache_read_tokens: usage.cache_read_input_tokens,
        output_tokens: 60,
      });
    });

    const thread = await chat.storedThread(threadId);
    const sum = (f: (u: AnthropicUsage) => number) => usages.reduce((s, u) => s + f(u), 0);
    expect(toNumber(thread.cache_read_tokens)).toBe(sum((u) => u.cache_read_input_tokens));
    expect(toNumber(thread.cache_write_tokens)).toBe(sum((u) => u.cache_creation_input_tokens));
    const billed = sum(anthropicBill);
    expect(toNumber(thread.cost_usd)).toBeCloseTo(billed, 6);
    // DESIGN.md section 6: at most half the uncached price.
    expect(billed / sum(anthropicUncached)).toBeLessThanOrEqual(0.5);
  });

  it('OpenAI: one prompt_cache_key per thread; cached input at its own price; each cost equals the bill', async () => {
    model.behaviour = (request, onText) => adapters.openai.streamReply(request, onText);
    const sentBefore = openai.requests.length;
    const { threadId } = await converse();

    const requests = openai.requests.slice(sentBefore) as { prompt_cache_key?: string; stream_options?: unknown }[];
    expect(requests).toHaveLength(TURNS + 1);
    for (const request of requests) {
      expect(request.prompt_cache_key).toBe(threadId);
      expect(request.stream_options).toEqual({ include_usage: true });
    }

    const usages = openai.usages.slice(sentBefore);
    expect(usages.filter((u) => u.cached_tokens > 0)).toHaveLength(TURNS);

    const replies = (await chat.storedMessages(threadId)).filter((m) => m.role === 'assistant');
    replies.forEach((reply, i) => {
      const usage = usages[i];
      if (!usage) throw new Error('no usage');
      const bill = openAiBill(usage);
      expect(Math.abs(toNumber(reply.cost_usd ?? 0) - bill) / bill).toBeLessThan(0.01);
      expect(reply).toMatchObject({
        input_tokens: usage.prompt_tokens,
        uncached_input_tokens: usage.prompt_tokens - usage.cached_tokens,
        cache_write_tokens: 0,
        cache_read_tokens: usage.cached_tokens,
      });
    });
    const thread = await chat.storedThread(threadId);
    expect(toNumber(thread.cache_read_tokens)).toBe(usages.reduce((s, u) => s + u.cached_tokens, 0));
  });

  it('a provider that reports no usage leaves the cache counts unknown (null), the cost an estimate', async () => {
    model.behaviour = async (_request, onText) => {
      onText('Hello.');
      return { model: 'switchable', inputTokens: null, outputTokens: null, stopReason: 'end_turn', thinking: [] };
    };
    const { user, threadId } = await chat.startThread('mmr');
    await chat.initial(user, threadId);
    const [reply] = await chat.storedMessages(threadId);
    expect(reply).toMatchObject({
      usage_estimated: dialect === 'sqlite' ? 1 : true,
      uncached_input_tokens: null,
      cache_write_tokens: null,
      cache_read_tokens: null,
    });
  });
});

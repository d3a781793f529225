import { afterEach, describe, expect, it } from 'vitest';
import {
  FAKE_OPENAI_MODEL,
  startOpenAiFake,
  type FakeResponse,
  type OpenAiFake,
} from '../../test/fakes/openai-fake.js';
import { instantRetryPolicy } from '../../test/fakes/retry-policy.js';
import type { ChatRequest } from './chat-model.js';
import { ChatModelError } from './errors.js';
import { OPENING_CUE } from './history.js';
import { createOpenAiModel, supportsPromptCacheKey } from './openai.model.js';

const request: ChatRequest = {
  system: 'You are a test assistant.',
  history: [
    { role: 'assistant', content: 'Hi there.' },
    { role: 'user', content: 'Which car seat?' },
  ],
  condition: 'control',
};

let fake: OpenAiFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setup(responses: FakeResponse[], options: { budgetMs?: number; timeoutMs?: number } = {}) {
  fake = await startOpenAiFake(responses);
  const { policy, waits } = instantRetryPolicy(options.budgetMs);
  const model = createOpenAiModel({
    apiKey: undefined,
    baseUrl: fake.url,
    model: 'gpt-4o-mini',
    maxTokens: 300,
    timeoutMs: options.timeoutMs ?? 5000,
    retry: policy,
  });
  const deltas: string[] = [];
  return { fake, waits, deltas, model, run: () => model.streamReply(request, (d) => deltas.push(d)) };
}

async function failure(promise: Promise<unknown>): Promise<ChatModelError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ChatModelError);
  return error as ChatModelError;
}

const ok: FakeResponse = { kind: 'stream', text: ['Rear-facing ', 'is ', 'safest.'], inputTokens: 55, outputTokens: 9 };

describe('OpenAI-compatible adapter', () => {
  it('streams the text and reads model, usage and finish reason from the chunks', async () => {
    const s = await setup([ok]);
    const info = await s.run();
    expect(s.deltas).toEqual(['Rear-facing ', 'is ', 'safest.']);
    expect(info).toEqual({
      model: FAKE_OPENAI_MODEL,
      inputTokens: 55,
      outputTokens: 9,
      cacheWriteTokens: 0,
      cacheReadTokens: 0,
      stopReason: 'stop',
      thinking: [],
    });
  });

  it("sends the request's cache key as prompt_cache_key to OpenAI's models only, and reads cached_tokens", async () => {
    const cached: FakeResponse = { ...ok, inputTokens: undefined, cached: true };
    const s = await setup([cached, cached]);
    const long = { ...request, system: 'Instructions. '.repeat(400), cacheKey: 'thread-1' };
    await s.model.streamReply(long, () => undefined);
    const info = await s.model.streamReply(long, () => undefined);
    expect(s.fake.requests[0]).toMatchObject({ prompt_cache_key: 'thread-1' });
    const usage = s.fake.usages[1];
    expect(usage?.cached_tokens).toBeGreaterThan(1024);
    expect(info).toMatchObject({ inputTokens: usage?.prompt_tokens, cacheReadTokens: usage?.cached_tokens });
    expect(supportsPromptCacheKey('gpt-4o-mini')).toBe(true);
    expect(supportsPromptCacheKey('gpt-5')).toBe(true);
    expect(supportsPromptCacheKey('o4-mini')).toBe(true);
    expect(supportsPromptCacheKey('gpt-4o-2024-05-13')).toBe(false);
    expect(supportsPromptCacheKey('llama3.1:8b')).toBe(false);
  });

  it('asks for usage in the stream, with the system prompt first and a user turn before the greeting', async () => {
    const s = await setup([ok]);
    await s.run();
    expect(s.fake.paths).toEqual(['/v1/chat/completions']);
    expect(s.fake.requests[0]).toMatchObject({
      model: 'gpt-4o-mini',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 300,
      messages: [
        { role: 'system', content: 'You are a test assistant.' },
        { role: 'user', content: OPENING_CUE },
        { role: 'assistant', content: 'Hi there.' },
        { role: 'user', content: 'Which car seat?' },
      ],
    });
  });

  it('takes the reply tokens of the request', async () => {
    const s = await setup([{ kind: 'stream', text: ['Fine.'] }]);
    await s.model.streamReply({ ...request, maxTokens: 42 }, () => undefined);
    expect(s.fake.requests[0]).toMatchObject({ max_tokens: 42 });
  });

  it("takes a study condition's model and temperature over its own, and sends no temperature unless asked", async () => {
    const s = await setup([
      { kind: 'stream', text: ['Fine.'] },
      { kind: 'stream', text: ['Fine.'] },
    ]);
    await s.model.streamReply({ ...request, model: 'llama-3.1-8b', temperature: 0.3 }, () => undefined);
    expect(s.fake.requests[0]).toMatchObject({ model: 'llama-3.1-8b', temperature: 0.3 });
    await s.model.streamReply(request, () => undefined);
    expect(s.fake.requests[1]).toMatchObject({ model: 'gpt-4o-mini' });
    expect(s.fake.requests[1]).not.toHaveProperty('temperature');
  });

  it('does not retry an exhausted quota (429 insufficient_quota)', async () => {
    const s = await setup([
      { kind: 'status', status: 429, code: 'insufficient_quota', message: 'You exceeded your current quota' },
      { kind: 'stream', text: ['Never.'] },
    ]);
    const error = await failure(s.run());
    expect(error.failure).toBe('quota');
    expect(error.options.providerCode).toBe('insufficient_quota');
    expect(s.fake.requests).toHaveLength(1);
  });

  it('retries a 429 after its retry-after, then succeeds', async () => {
    const s = await setup([{ kind: 'status', status: 429, retryAfter: '2' }, ok]);
    await s.run();
    expect(s.waits).toEqual([2000]);
    expect(s.deltas.join('')).toBe('Rear-facing is safest.');
  });

  it('gives up on a 500 every time within the budget', async () => {
    const s = await setup([{ kind: 'status', status: 500 }], { budgetMs: 700 });
    const error = await failure(s.run());
    expect(error.failure).toBe('unavailable');
    expect(error.attempts).toBe(s.fake.requests.length);
    expect(error.attempts).toBeGreaterThan(1);
    expect(s.waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(700);
  });

  it('retries a connection dropped before the first token, not one dropped after it', async () => {
    const early = await setup([{ ...ok, dropAfter: 0 }, ok]);
    await early.run();
    expect(early.fake.requests).toHaveLength(2);
    await fake?.close();

    const late = await setup([{ ...ok, dropAfter: 1 }, ok]);
    const error = await failure(late.run());
    expect(error.afterFirstToken).toBe(true);
    expect(late.fake.requests).toHaveLength(1);
    expect(late.deltas).toEqual(['Rear-facing ']);
    expect(error.partial.model).toBe(FAKE_OPENAI_MODEL);
  });

  it('retries an error sent inside the stream before the first token, not one sent after it', async () => {
    const early = await setup([{ ...ok, errorAfter: 0 }, ok]);
    await early.run();
    expect(early.fake.requests).toHaveLength(2);
    expect(early.deltas.join('')).toBe('Rear-facing is safest.');
    await fake?.close();

    const late = await setup([{ ...ok, errorAfter: 1 }, ok]);
    const error = await failure(late.run());
    expect(error.failure).toBe('unavailable');
    expect(error.message).toMatch(/server_error/);
    expect(error.afterFirstToken).toBe(true);
    expect(late.fake.requests).toHaveLength(1);
    expect(late.deltas).toEqual(['Rear-facing ']);
  });

  it('times out when the provider goes silent mid-stream, keeping what arrived', async () => {
    const s = await setup([{ ...ok, stallAfter: 2 }, ok], { timeoutMs: 150 });
    const error = await failure(s.run());
    expect(error.failure).toBe('timeout');
    expect(error.afterFirstToken).toBe(true);
    expect(s.fake.requests).toHaveLength(1);
    expect(s.deltas).toEqual(['Rear-facing ', 'is ']);
    expect(error.partial.model).toBe(FAKE_OPENAI_MODEL);
  });

  it('times out when the provider goes silent', async () => {
    const s = await setup([{ ...ok, stall: true }], { timeoutMs: 150 });
    const error = await failure(s.run());
    expect(error.failure).toBe('timeout');
    expect(s.fake.requests).toHaveLength(1);
  });
});

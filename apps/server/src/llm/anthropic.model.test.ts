import { afterEach, describe, expect, it } from 'vitest';
import {
  FAKE_ANTHROPIC_MODEL,
  startAnthropicFake,
  type AnthropicFake,
  type FakeResponse,
} from '../../test/fakes/anthropic-fake.js';
import { instantRetryPolicy } from '../../test/fakes/retry-policy.js';
import { cachedPrompt, createAnthropicModel, usesAdaptiveThinking } from './anthropic.model.js';
import type { ChatRequest } from './chat-model.js';
import { ChatModelError } from './errors.js';
import { OPENING_CUE } from './history.js';

const request: ChatRequest = {
  system: 'You are a test assistant.',
  history: [
    { role: 'assistant', content: 'Hello! Ask me anything.' },
    { role: 'user', content: 'Is the vaccine safe?' },
  ],
  condition: 'mmr',
};

let fake: AnthropicFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setup(
  responses: FakeResponse[],
  options: { budgetMs?: number; timeoutMs?: number; model?: string } = {},
) {
  fake = await startAnthropicFake(responses);
  const { policy, waits } = instantRetryPolicy(options.budgetMs);
  const model = createAnthropicModel({
    apiKey: 'test-key',
    baseUrl: fake.url,
    model: options.model ?? 'claude-sonnet-4-5',
    maxTokens: 500,
    thinkingBudget: 1024,
    timeoutMs: options.timeoutMs ?? 5000,
    retry: policy,
  });
  const deltas: string[] = [];
  const run = () => model.streamReply(request, (d) => deltas.push(d));
  return { fake, waits, deltas, run };
}

async function failure(promise: Promise<unknown>): Promise<ChatModelError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ChatModelError);
  return error as ChatModelError;
}

const ok: FakeResponse = {
  kind: 'stream',
  thinking: ['First I consider the question.', 'Then the evidence.'],
  redacted: 1,
  text: ['The vaccine ', 'is safe ', 'for most children.'],
  inputTokens: 321,
  outputTokens: 87,
};

describe('Anthropic adapter', () => {
  it('streams the text, and reports model, tokens, stop reason and the thinking log in order', async () => {
    const s = await setup([ok]);
    const info = await s.run();
    expect(s.deltas).toEqual(['The vaccine ', 'is safe ', 'for most children.']);
    expect(info).toEqual({
      model: FAKE_ANTHROPIC_MODEL,
      inputTokens: 321,
      outputTokens: 87,
      cacheWriteTokens: 0,
      cacheReadTokens: 0,
      stopReason: 'end_turn',
      thinking: [
        { type: 'thinking', thinking: 'First I consider the question.' },
        { type: 'thinking', thinking: 'Then the evidence.' },
        { type: 'redacted_thinking' },
      ],
    });
  });

  it('asks for a streamed reply with extended thinking, the system prompt, and a user turn first', async () => {
    const s = await setup([ok]);
    await s.run();
    expect(s.fake.paths).toEqual(['/v1/messages']);
    // Cache breakpoints on the system prompt and on the conversation so far (docs/decisions/0076).
    const ephemeral = { type: 'ephemeral' };
    expect(s.fake.requests[0]).toEqual({
      model: 'claude-sonnet-4-5',
      stream: true,
      system: [{ type: 'text', text: 'You are a test assistant.', cache_control: ephemeral }],
      thinking: { type: 'enabled', budget_tokens: 1024 },
      max_tokens: 1524,
      messages: [
        { role: 'user', content: OPENING_CUE },
        { role: 'assistant', content: 'Hello! Ask me anything.' },
        { role: 'user', content: [{ type: 'text', text: 'Is the vaccine safe?', cache_control: ephemeral }] },
      ],
    });
  });

  it('sends no breakpoints for a model that is not Claude, and no empty system block', async () => {
    const s = await setup([ok], { model: 'local-model' });
    await s.run();
    expect(s.fake.requests[0]).toMatchObject({ system: 'You are a test assistant.' });
    expect(JSON.stringify(s.fake.requests[0])).not.toContain('cache_control');
    expect(cachedPrompt('', [{ role: 'user', content: 'Hi' }])).toEqual({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } }] }],
    });
  });

  it('reads the cache writes and reads from message_start and the cumulative message_delta', async () => {
    const cached: FakeResponse = { ...ok, inputTokens: undefined, cached: true };
    const s = await setup([cached, cached]);
    const model = createAnthropicModel({
      apiKey: 'test-key',
      baseUrl: s.fake.url,
      model: 'claude-sonnet-4-5',
      maxTokens: 500,
      thinkingBudget: 1024,
      timeoutMs: 5000,
      retry: instantRetryPolicy().policy,
    });
    const long = { ...request, system: 'Instructions. '.repeat(400) };
    const first = await model.streamReply(long, () => undefined);
    const second = await model.streamReply(long, () => undefined);
    const [u1, u2] = s.fake.usages;
    expect(first).toMatchObject({
      inputTokens: (u1?.input_tokens ?? 0) + (u1?.cache_creation_input_tokens ?? 0),
      cacheWriteTokens: u1?.cache_creation_input_tokens,
      cacheReadTokens: 0,
    });
    // The same prompt again: what the first call wrote is read.
    expect(second).toMatchObject({ cacheReadTokens: u2?.cache_read_input_tokens, cacheWriteTokens: 0 });
    expect(u2?.cache_read_input_tokens).toBeGreaterThan(0);
  });

  it('takes the reply tokens of the request, and can leave thinking out (the model check)', async () => {
    const s = await setup([ok, ok]);
    await s.run();
    fake = s.fake;
    const { policy } = instantRetryPolicy();
    const model = createAnthropicModel({
      apiKey: 'test-key',
      baseUrl: s.fake.url,
      model: 'claude-sonnet-4-5',
      maxTokens: 500,
      thinkingBudget: 1024,
      timeoutMs: 5000,
      retry: policy,
    });
    await model.streamReply({ ...request, maxTokens: 64, thinking: false }, () => undefined);
    expect(s.fake.requests[1]).toMatchObject({ max_tokens: 64 });
    expect(s.fake.requests[1]).not.toHaveProperty('thinking');
    await model.streamReply({ ...request, maxTokens: 300 }, () => undefined);
    expect(s.fake.requests[2]).toMatchObject({ max_tokens: 1324, thinking: { type: 'enabled', budget_tokens: 1024 } });
  });

  it("takes a study condition's model, thinking budget and temperature (temperature only without thinking)", async () => {
    const s = await setup([ok, ok, ok]);
    const model = createAnthropicModel({
      apiKey: 'test-key',
      baseUrl: s.fake.url,
      model: 'claude-sonnet-4-5',
      maxTokens: 500,
      thinkingBudget: 1024,
      timeoutMs: 5000,
      retry: instantRetryPolicy().policy,
    });
    await model.streamReply(
      { ...request, model: 'claude-haiku-4-5', thinkingBudget: 2048, temperature: 0.2 },
      () => {},
    );
    expect(s.fake.requests[0]).toMatchObject({
      model: 'claude-haiku-4-5',
      max_tokens: 2548,
      thinking: { type: 'enabled', budget_tokens: 2048 },
    });
    expect(s.fake.requests[0]).not.toHaveProperty('temperature');
    await model.streamReply({ ...request, thinkingBudget: 0, temperature: 0.2, maxTokens: 200 }, () => {});
    expect(s.fake.requests[1]).toMatchObject({ model: 'claude-sonnet-4-5', max_tokens: 200, temperature: 0.2 });
    expect(s.fake.requests[1]).not.toHaveProperty('thinking');
    await model.streamReply({ ...request, model: 'claude-sonnet-5-5' }, () => {});
    expect(s.fake.requests[2]).toMatchObject({ model: 'claude-sonnet-5-5', thinking: { type: 'adaptive' } });
  });

  it('uses adaptive thinking, with readable summaries, on models that no longer take a budget', async () => {
    const s = await setup([ok], { model: 'claude-sonnet-5-5' });
    await s.run();
    expect(s.fake.requests[0]).toMatchObject({ thinking: { type: 'adaptive', display: 'summarized' } });
    expect(usesAdaptiveThinking('claude-sonnet-4-5-20250929')).toBe(false);
    expect(usesAdaptiveThinking('claude-opus-4-20250514')).toBe(false);
    expect(usesAdaptiveThinking('claude-3-5-haiku-20241022')).toBe(false);
    expect(usesAdaptiveThinking('claude-sonnet-4-6')).toBe(true);
    expect(usesAdaptiveThinking('claude-opus-4-8')).toBe(true);
    expect(usesAdaptiveThinking('claude-sonnet-5')).toBe(true);
    expect(usesAdaptiveThinking('claude-haiku-5-5')).toBe(true);
    expect(usesAdaptiveThinking('claude-fable-5-1')).toBe(true);
  });

  it('retries a 429 after the retry-after the provider asked for, then succeeds', async () => {
    const s = await setup([{ kind: 'status', status: 429, retryAfter: '1' }, ok]);
    await s.run();
    expect(s.waits).toEqual([1000]);
    expect(s.fake.requests).toHaveLength(2);
    expect(s.deltas.join('')).toBe('The vaccine is safe for most children.');
  });

  it('gives up on a 500 every time within the retry budget, with a clear error', async () => {
    const s = await setup([{ kind: 'status', status: 500 }], { budgetMs: 1000 });
    const error = await failure(s.run());
    expect(error.failure).toBe('unavailable');
    expect(error.message).toMatch(/Provider error 500/);
    expect(error.afterFirstToken).toBe(false);
    expect(error.attempts).toBeGreaterThan(1);
    expect(s.fake.requests).toHaveLength(error.attempts);
    expect(s.waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1000);
    expect(s.deltas).toEqual([]);
  });

  it('retries an overloaded (529) answer and an overloaded error event that came before any text', async () => {
    const s = await setup([{ kind: 'status', status: 529 }, { ...ok, errorAfter: 0 }, ok]);
    await s.run();
    expect(s.fake.requests).toHaveLength(3);
    expect(s.deltas.join('')).toBe('The vaccine is safe for most children.');
  });

  it('retries a connection dropped before the first token', async () => {
    const s = await setup([{ ...ok, dropAfter: 0 }, ok]);
    await s.run();
    expect(s.fake.requests).toHaveLength(2);
    expect(s.deltas.join('')).toBe('The vaccine is safe for most children.');
  });

  it('does not retry a connection dropped mid-stream, and keeps what arrived', async () => {
    const s = await setup([{ ...ok, dropAfter: 2 }, ok]);
    const error = await failure(s.run());
    expect(error.afterFirstToken).toBe(true);
    expect(error.failure).toBe('connection');
    expect(s.fake.requests).toHaveLength(1);
    expect(s.deltas).toEqual(['The vaccine ', 'is safe ']);
    expect(error.partial.model).toBe(FAKE_ANTHROPIC_MODEL);
    expect(error.partial.inputTokens).toBe(321);
    expect(error.partial.thinking).toHaveLength(3);
  });

  it('does not retry an error event after the first token', async () => {
    const s = await setup([{ ...ok, errorAfter: 1 }, ok]);
    const error = await failure(s.run());
    expect(error.afterFirstToken).toBe(true);
    expect(error.message).toMatch(/overloaded_error/);
    expect(s.fake.requests).toHaveLength(1);
    expect(s.deltas).toEqual(['The vaccine ']);
  });

  it('times out when the provider goes silent, without retrying', async () => {
    const s = await setup([{ ...ok, stall: true }], { timeoutMs: 150 });
    const error = await failure(s.run());
    expect(error.failure).toBe('timeout');
    expect(s.fake.requests).toHaveLength(1);
  });

  it('times out when the provider goes silent mid-stream, keeping what arrived', async () => {
    const s = await setup([{ ...ok, stallAfter: 1 }, ok], { timeoutMs: 150 });
    const error = await failure(s.run());
    expect(error.failure).toBe('timeout');
    expect(error.afterFirstToken).toBe(true);
    expect(s.fake.requests).toHaveLength(1);
    expect(s.deltas).toEqual(['The vaccine ']);
    expect(error.partial.thinking).toHaveLength(3);
  });

  it('does not retry a request the provider rejects (400)', async () => {
    const s = await setup([{ kind: 'status', status: 400, message: 'bad request' }, ok]);
    const error = await failure(s.run());
    expect(error.failure).toBe('rejected');
    expect(s.fake.requests).toHaveLength(1);
  });
});

import { studyDefinition, type ThreadMessagesReply } from '@studychat/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectJson, useTestApp } from '../../../test/app.js';
import { chatClient, events, streamedError, streamedText, SwitchableModel } from '../../../test/chat.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { startAnthropicFake } from '../../../test/fakes/anthropic-fake.js';
import type { FakeProvider, FakeResponse } from '../../../test/fakes/fake-server.js';
import { startOpenAiFake } from '../../../test/fakes/openai-fake.js';
import { instantRetryPolicy } from '../../../test/fakes/retry-policy.js';
import { createAnthropicModel } from '../../llm/anthropic.model.js';
import type { ChatModel } from '../../llm/chat-model.js';
import { createOpenAiModel } from '../../llm/openai.model.js';
import { MODEL_ERRORS } from './chat.service.js';

// Each greeting and reply fault, through the real adapters against local servers that speak each
// provider's streaming protocol (test/fakes), on both databases.
const PROVIDERS = ['anthropic', 'openai'] as const;
const cases = TEST_DIALECTS.flatMap((dialect) => PROVIDERS.map((provider) => [dialect, provider] as const));

const ok = (text: string[]): Extract<FakeResponse, { kind: 'stream' }> => ({
  kind: 'stream',
  text,
  inputTokens: 500,
  outputTokens: 40,
});

describe.each(cases)('chat faults on %s with the %s adapter', (dialect, provider) => {
  const model = new SwitchableModel();
  const t = useTestApp(dialect, { deps: { llm: model } });
  const chat = chatClient(t);
  let fake: FakeProvider;
  let queue: FakeResponse[] = [];
  let adapter: ChatModel;

  beforeAll(async () => {
    const next = () => queue.shift() ?? ok(['Fine.']);
    fake = provider === 'anthropic' ? await startAnthropicFake(next) : await startOpenAiFake(next);
    const common = { apiKey: 'test-key', baseUrl: fake.url, maxTokens: 500, timeoutMs: 2000 };
    const { policy } = instantRetryPolicy(1000);
    adapter =
      provider === 'anthropic'
        ? createAnthropicModel({ ...common, model: 'claude-sonnet-4-5', thinkingBudget: 1024, retry: policy })
        : createOpenAiModel({ ...common, model: 'gpt-4o-mini', retry: policy });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    model.reset();
    model.behaviour = (request, onText) => adapter.streamReply(request, onText);
    queue = [];
  });

  const shown = async (user: Parameters<typeof chat.messages>[0], threadId: string) =>
    expectJson<ThreadMessagesReply>(await chat.messages(user, threadId), 200);

  describe('the greeting', () => {
    const faults: [string, FakeResponse, string][] = [
      ['cut off mid-stream', { ...ok(['Hello ', 'and ', 'welcome.']), dropAfter: 2 }, 'error'],
      ['empty', ok([]), 'empty'],
      ['refused (400)', { kind: 'status', status: 400, message: 'bad request' }, 'error'],
      ['down (500) through every retry', { kind: 'status', status: 500 }, 'error'],
    ];
    it.each(faults)(
      '%s: an error event, never replayed, generated again on the next request',
      async (_name, fault, status) => {
        const { user, threadId } = await chat.startThread();
        // Enough for every retry of a transient fault.
        queue = [fault, fault, fault, fault];
        const first = await chat.initial(user, threadId);
        expect(streamedError(first)).toBe(MODEL_ERRORS.initial);
        const failed = (await chat.storedMessages(threadId)).at(-1);
        expect(failed).toMatchObject({ role: 'assistant', status });
        expect((await shown(user, threadId)).messages).toEqual([]);

        queue = [ok(['Hello! ', 'Ask me anything.'])];
        const second = await chat.initial(user, threadId);
        expect(streamedText(second)).toBe('Hello! Ask me anything.');
        expect(streamedError(second)).toBeUndefined();
        const requests = fake.requests.length;
        // Stored complete now: replayed, without another request to the provider.
        expect(streamedText(await chat.initial(user, threadId))).toBe('Hello! Ask me anything.');
        expect(fake.requests).toHaveLength(requests);
        expect((await shown(user, threadId)).messages.map((m) => [m.role, m.content, m.status])).toEqual([
          ['assistant', 'Hello! Ask me anything.', 'complete'],
        ]);
      },
    );
  });

  describe('a reply', () => {
    async function chatting() {
      const started = await chat.startThread('control');
      queue = [ok(['Hi! ', 'Ask about car seats.'])];
      await chat.initial(started.user, started.threadId);
      return started;
    }

    it('empty: shown as an empty message (the page says [No response from assistant]), stored as empty, no round', async () => {
      const { user, threadId } = await chatting();
      queue = [ok([])];
      const res = await chat.send(user, threadId, 'How long rear-facing?');
      expect(events(res)).toEqual(['[DONE]']);
      const state = await shown(user, threadId);
      expect(state.messages.at(-1)).toMatchObject({ role: 'assistant', content: '', status: 'empty' });
      expect(state.progress.rounds).toBe(0);
      expect((await chat.storedMessages(threadId)).at(-1)).toMatchObject({
        status: 'empty',
        error_message: 'The model answered with no text',
        input_tokens: 500,
      });
      queue = [ok(['Until the seat’s limit.'])];
      expect(streamedText(await chat.send(user, threadId, 'How long rear-facing?'))).toBe('Until the seat’s limit.');
      expect((await shown(user, threadId)).progress.rounds).toBe(1);
    });

    it('cut off after some text: the text arrives, then an error; kept with status error; sending again works', async () => {
      const { user, threadId } = await chatting();
      queue = [{ ...ok(['Keep ', 'them ', 'rear-facing.']), dropAfter: 2 }];
      const res = await chat.send(user, threadId, 'Question');
      expect(streamedText(res)).toBe('Keep them ');
      expect(streamedError(res)).toBe(MODEL_ERRORS.interrupted);
      expect((await chat.storedMessages(threadId)).at(-1)).toMatchObject({ content: 'Keep them ', status: 'error' });
      expect((await shown(user, threadId)).progress.rounds).toBe(0);
      expect((await chat.send(user, threadId, 'Question')).statusCode).toBe(200);
      expect((await shown(user, threadId)).progress.rounds).toBe(1);
    });

    // Only Anthropic's protocol has error events inside a stream.
    if (provider === 'anthropic') {
      it('an error event mid-stream (Anthropic overloaded_error) keeps the text and is not retried', async () => {
        const { user, threadId } = await chatting();
        const before = fake.requests.length;
        queue = [{ ...ok(['Rear-facing ', 'is safest.']), errorAfter: 1 }, ok(['Never sent.'])];
        const res = await chat.send(user, threadId, 'Question');
        expect(streamedText(res)).toBe('Rear-facing ');
        expect(streamedError(res)).toBe(MODEL_ERRORS.interrupted);
        expect(fake.requests.length - before).toBe(1);
        expect((await chat.storedMessages(threadId)).at(-1)).toMatchObject({
          content: 'Rear-facing ',
          status: 'error',
          error_message: expect.stringMatching(/overloaded_error/) as unknown,
        });
      });
    }

    it('a rate limit (429) before any text is retried and the reply arrives', async () => {
      const { user, threadId } = await chatting();
      queue = [{ kind: 'status', status: 429, retryAfter: '0' }, ok(['After a wait.'])];
      expect(streamedText(await chat.send(user, threadId, 'Question'))).toBe('After a wait.');
    });

    it('an account without quota or credit is not retried and tells the participant to wait', async () => {
      const { user, threadId } = await chatting();
      const before = fake.requests.length;
      queue = [
        provider === 'openai'
          ? { kind: 'status', status: 429, code: 'insufficient_quota', message: 'You exceeded your current quota' }
          : { kind: 'status', status: 400, message: 'Your credit balance is too low to access the Anthropic API.' },
        ok(['Never sent.']),
      ];
      const res = await chat.send(user, threadId, 'Question');
      expect(streamedError(res)).toBe(MODEL_ERRORS.unavailable);
      expect(fake.requests.length - before).toBe(1);
      expect((await chat.storedMessages(threadId)).at(-1)?.error_message).toMatch(/no credit or quota left/);
    });

    it('a request the provider refuses (400) asks the participant to rephrase', async () => {
      const { user, threadId } = await chatting();
      queue = [{ kind: 'status', status: 400, message: 'Invalid request' }];
      expect(streamedError(await chat.send(user, threadId, 'Question'))).toBe(MODEL_ERRORS.rejected);
    });
  });

  it('sends the provider alternating turns starting with a user turn after a failed reply', async () => {
    const { user, threadId } = await chat.startThread();
    queue = [ok(['Hello.'])];
    await chat.initial(user, threadId);
    queue = [{ kind: 'status', status: 400 }];
    await chat.send(user, threadId, 'First try');
    await chat.send(user, threadId, 'Second message');
    const body = fake.requests.at(-1) as { messages: { role: string; content: string | { text: string }[] }[] };
    const turns = body.messages.filter((m) => m.role !== 'system');
    expect(turns[0]?.role).toBe('user');
    for (let i = 1; i < turns.length; i += 1) expect(turns[i]?.role).not.toBe(turns[i - 1]?.role);
    // Anthropic's last turn is a block with its cache breakpoint (docs/decisions/0076).
    const last = turns.at(-1);
    const text = typeof last?.content === 'string' ? last.content : last?.content[0]?.text;
    expect({ role: last?.role, text }).toEqual({ role: 'user', text: 'First try\n\nSecond message' });
    expect(studyDefinition.chat.conditions.mmr.systemPrompt.length).toBeGreaterThan(0);
  });
});

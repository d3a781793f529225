import { studyDefinition, type StudyDefinition } from '@studychat/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { chatClient, streamedError, streamedText, SwitchableModel } from '../../../test/chat.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { startAnthropicFake, type AnthropicFake } from '../../../test/fakes/anthropic-fake.js';
import type { FakeResponse } from '../../../test/fakes/fake-server.js';
import { instantRetryPolicy } from '../../../test/fakes/retry-policy.js';
import { createAnthropicModel } from '../../llm/anthropic.model.js';
import type { ChatModel } from '../../llm/chat-model.js';
import { MODEL_ERRORS } from './chat.service.js';

// A condition's fallback model (issue 32, docs/decisions/0076): it answers when the condition's model is
// overloaded (529) or has failed LLM_FALLBACK_AFTER attempts in the reply, and the reply records whom it stood in for.

const study: StudyDefinition = structuredClone(studyDefinition);
const mmr = study.chat.conditions.mmr;
if (mmr) mmr.settings = { model: 'claude-sonnet-5', fallbackModel: 'claude-haiku-4-5', thinkingBudget: 0 };

describe.each(TEST_DIALECTS)('the fallback model on %s', (dialect) => {
  const model = new SwitchableModel();
  const t = useTestApp(dialect, { deps: { llm: model, studies: () => Promise.resolve(study) } });
  const chat = chatClient(t);
  let fake: AnthropicFake;
  let queue: FakeResponse[] = [];
  let adapter: ChatModel;

  beforeAll(async () => {
    fake = await startAnthropicFake(() => queue.shift() ?? { kind: 'stream', text: ['Fine.'] });
    adapter = createAnthropicModel({
      apiKey: 'k',
      baseUrl: fake.url,
      model: 'claude-sonnet-5',
      maxTokens: 200,
      thinkingBudget: 0,
      timeoutMs: 2000,
      // Retries within 100 ms: a 500, a 75 ms wait, one more attempt.
      retry: instantRetryPolicy(100).policy,
    });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    model.reset();
    model.behaviour = (request, onText) => adapter.streamReply(request, onText);
    queue = [];
  });

  const models = (from: number) => fake.requests.slice(from).map((r) => (r as { model: string }).model);

  it("answers at once when the condition's model is overloaded (529), recorded on the reply", async () => {
    const { user, threadId } = await chat.startThread();
    const before = fake.requests.length;
    queue = [
      { kind: 'status', status: 529 },
      { kind: 'stream', text: ['From ', 'the fallback.'] },
    ];
    const res = await chat.send(user, threadId, 'Hello?');
    expect(streamedText(res)).toBe('From the fallback.');
    expect(models(before)).toEqual(['claude-sonnet-5', 'claude-haiku-4-5']);
    const reply = (await chat.storedMessages(threadId)).at(-1);
    expect(reply).toMatchObject({ status: 'complete', fallback_from: 'claude-sonnet-5' });
    expect(Number(reply?.cost_usd)).toBeGreaterThan(0);
  });

  it('answers after two failed attempts of the condition model (500s), not after one', async () => {
    const { user, threadId } = await chat.startThread();
    let before = fake.requests.length;
    queue = [
      { kind: 'status', status: 500 },
      { kind: 'stream', text: ['Recovered.'] },
    ];
    expect(streamedText(await chat.send(user, threadId, 'One'))).toBe('Recovered.');
    // One failure: the adapter's own retry answered with the condition's model.
    expect(models(before)).toEqual(['claude-sonnet-5', 'claude-sonnet-5']);
    expect((await chat.storedMessages(threadId)).at(-1)?.fallback_from).toBeNull();

    before = fake.requests.length;
    queue = [
      { kind: 'status', status: 500 },
      { kind: 'status', status: 500 },
      { kind: 'stream', text: ['Fallback.'] },
    ];
    // The adapter's two attempts fail (its retry budget is spent), then the fallback answers.
    const res = await chat.send(user, threadId, 'Two');
    expect(streamedText(res)).toBe('Fallback.');
    expect(models(before)).toEqual(['claude-sonnet-5', 'claude-sonnet-5', 'claude-haiku-4-5']);
    expect((await chat.storedMessages(threadId)).at(-1)?.fallback_from).toBe('claude-sonnet-5');
  });

  it('never falls back on a refused request (400) alone: the reply fails as before', async () => {
    const { user, threadId } = await chat.startThread();
    const before = fake.requests.length;
    queue = [{ kind: 'status', status: 400 }];
    const res = await chat.send(user, threadId, 'Hello?');
    expect(streamedError(res)).toBe(MODEL_ERRORS.rejected);
    expect(models(before)).toEqual(['claude-sonnet-5']);
  });
});

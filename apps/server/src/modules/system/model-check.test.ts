import type { ModelCheckReply } from '@studychat/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAndLogin, createTestApp, expectJson, testConfig, type TestApp } from '../../../test/app.js';
import { dropTestSchemas, TEST_DIALECTS } from '../../../test/databases.js';
import { FAKE_ANTHROPIC_MODEL, startAnthropicFake } from '../../../test/fakes/anthropic-fake.js';
import type { FakeProvider, FakeResponse } from '../../../test/fakes/fake-server.js';
import { startOpenAiFake } from '../../../test/fakes/openai-fake.js';
import type { LlmConfig } from '../../config.js';

// POST /api/admin/model-check against local fakes of both providers: what is wrong, in plain words.
describe.each(TEST_DIALECTS)('POST /api/admin/model-check on %s', (dialect) => {
  let anthropicQueue: FakeResponse[] = [];
  let openaiQueue: FakeResponse[] = [];
  const ok: FakeResponse = { kind: 'stream', text: ['OK'] };
  let anthropicFake: FakeProvider;
  let openaiFake: FakeProvider;
  const apps: Record<'anthropic' | 'openai' | 'unreachable' | 'scripted' | 'unpriced', TestApp | undefined> = {
    anthropic: undefined,
    openai: undefined,
    unreachable: undefined,
    scripted: undefined,
    unpriced: undefined,
  };
  const llm = testConfig().llm;

  beforeAll(async () => {
    anthropicFake = await startAnthropicFake(() => anthropicQueue.shift() ?? ok);
    openaiFake = await startOpenAiFake(() => openaiQueue.shift() ?? ok);
    const withLlm = (changes: Partial<LlmConfig>) =>
      createTestApp(dialect, { config: { llm: { ...llm, ...changes } } });
    apps.anthropic = await withLlm({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      anthropicApiKey: 'test-key',
      anthropicBaseUrl: anthropicFake.url,
    });
    apps.openai = await withLlm({
      provider: 'openai',
      model: 'gpt-4o-mini',
      openaiApiKey: 'test-key',
      openaiBaseUrl: openaiFake.url,
    });
    // Nothing listens on port 9 (discard) here: the connection is refused.
    apps.unreachable = await withLlm({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      anthropicApiKey: 'test-key',
      anthropicBaseUrl: 'http://127.0.0.1:9',
    });
    apps.scripted = await withLlm({});
    // A provider's own name for a model the price table does not know (a router, a local server).
    apps.unpriced = await withLlm({
      provider: 'openai',
      model: 'openai/gpt-4o',
      openaiApiKey: 'test-key',
      openaiBaseUrl: openaiFake.url,
    });
  });
  afterAll(async () => {
    for (const app of Object.values(apps)) {
      await app?.app.close();
      await app?.database.close();
    }
    await anthropicFake.close();
    await openaiFake.close();
    await dropTestSchemas();
  });

  async function check(name: keyof typeof apps): Promise<ModelCheckReply> {
    const app = apps[name];
    if (!app) throw new Error('app not ready');
    const admin = await createAndLogin(app, { isAdmin: true });
    return expectJson<ModelCheckReply>(
      await app.app.inject({ method: 'POST', url: '/api/admin/model-check', headers: admin.headers }),
      200,
    );
  }

  it('says the model works, with one tiny request without thinking', async () => {
    const before = anthropicFake.requests.length;
    const result = await check('anthropic');
    expect(result).toMatchObject({ ok: true, problem: null, provider: 'anthropic', model: FAKE_ANTHROPIC_MODEL });
    expect(result.message).toMatch(
      /^The model works: Anthropic accepted the key and the model "claude-sonnet-4-5". It answered "OK"/,
    );
    expect(anthropicFake.requests).toHaveLength(before + 1);
    const body = anthropicFake.requests.at(-1) as Record<string, unknown>;
    expect(body.max_tokens).toBe(64);
    expect(body.thinking).toBeUndefined();
    expect((await check('openai')).ok).toBe(true);
  });

  it.each([
    [
      'anthropic',
      { kind: 'status', status: 401, message: 'invalid x-api-key' },
      'key',
      /refused the API key\. Check ANTHROPIC_API_KEY/,
    ],
    ['openai', { kind: 'status', status: 401, message: 'Incorrect API key provided' }, 'key', /Check OPENAI_API_KEY/],
    [
      'anthropic',
      { kind: 'status', status: 404, message: 'model: claude-nope' },
      'model',
      /does not know the model "claude-sonnet-4-5"\. Check LLM_MODEL/,
    ],
    ['openai', { kind: 'status', status: 404, message: 'The model does not exist' }, 'model', /Check LLM_MODEL/],
    [
      'anthropic',
      { kind: 'status', status: 400, message: 'Your credit balance is too low to access the Anthropic API.' },
      'quota',
      /no credit or quota left/,
    ],
    [
      'openai',
      { kind: 'status', status: 429, code: 'insufficient_quota', message: 'You exceeded your current quota' },
      'quota',
      /no credit or quota left/,
    ],
    ['openai', { kind: 'status', status: 429, message: 'Rate limit reached' }, 'rate_limited', /limiting requests/],
    ['anthropic', { kind: 'status', status: 529 }, 'unavailable', /server problem or is overloaded/],
  ] as const)('%s %j: %s', async (provider, response, problem, message) => {
    if (provider === 'anthropic') anthropicQueue = [response];
    else openaiQueue = [response];
    const fake = provider === 'anthropic' ? anthropicFake : openaiFake;
    const before = fake.requests.length;
    const result = await check(provider);
    expect(result).toMatchObject({ ok: false, problem, provider });
    expect(result.message).toMatch(message);
    // No retries: the answer comes at once.
    expect(fake.requests).toHaveLength(before + 1);
  });

  it('refuses a model with no known price without a paid call, saying how to give one', async () => {
    const before = openaiFake.requests.length;
    const result = await check('unpriced');
    expect(result).toMatchObject({ ok: false, problem: 'price', model: 'openai/gpt-4o' });
    expect(result.message).toMatch(/^No price is known for the model "openai\/gpt-4o"/);
    expect(result.message).toContain('LLM_PRICES');
    expect(openaiFake.requests).toHaveLength(before);
    // A priced model's check says what the budget counts it at.
    expect((await check('openai')).message).toContain(
      'The chat budget counts it at $0.15 per million input tokens and $0.6 per million output tokens.',
    );
  });

  it('names the address it could not reach', async () => {
    const result = await check('unreachable');
    expect(result).toMatchObject({ ok: false, problem: 'network' });
    expect(result.message).toMatch(/^Could not reach http:\/\/127\.0\.0\.1:9\. Check .* ANTHROPIC_BASE_URL/);
  });

  it('says plainly when no real model is connected', async () => {
    const result = await check('scripted');
    expect(result).toMatchObject({ ok: true, provider: 'scripted', problem: null });
    expect(result.message).toMatch(/no real AI model is connected/);
  });

  it('is for admins only', async () => {
    const app = apps.scripted;
    if (!app) throw new Error('app not ready');
    const participant = await createAndLogin(app);
    const asParticipant = await app.app.inject({
      method: 'POST',
      url: '/api/admin/model-check',
      headers: participant.headers,
    });
    expect(expectJson<{ code: string }>(asParticipant, 403).code).toBe('FORBIDDEN');
    expect((await app.app.inject({ method: 'POST', url: '/api/admin/model-check' })).statusCode).toBe(401);
  });
});

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { defaultDeps } from '../../default-deps.js';
import { createTestApp, expectJson, testConfig } from '../../../test/app.js';
import { createTestDatabase, dropTestSchemas, TEST_DIALECTS } from '../../../test/databases.js';
import { isModelConfigured } from './health.service.js';

type Ready = { status: string; checks: { database: boolean; migrations: boolean; model: boolean } };

describe.each(TEST_DIALECTS)('liveness and readiness on %s', (dialect) => {
  it('is ready when the database answers, is migrated and a model is configured; both need no login', async () => {
    const t = await createTestApp(dialect);
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(expectJson<Ready>(ready, 200)).toEqual({
      status: 'ready',
      checks: { database: true, migrations: true, model: true },
    });
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(expectJson(health, 200)).toMatchObject({ status: 'ok', database: { dialect, reachable: true } });
    await t.app.close();
    await t.database.close();
    await dropTestSchemas();
  });

  it('is not ready (503) before the migrations have run', async () => {
    const database = await createTestDatabase(dialect, { migrate: false });
    const app = await buildApp(testConfig(), defaultDeps(database));
    const res = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(expectJson<Ready>(res, 503)).toEqual({
      status: 'not_ready',
      checks: { database: true, migrations: false, model: true },
    });
    await app.close();
    await database.close();
    await dropTestSchemas();
  });

  it('is not ready without its database, while liveness still answers 200', async () => {
    const t = await createTestApp(dialect);
    await t.database.close();
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(expectJson<Ready>(ready, 503)).toEqual({
      status: 'not_ready',
      checks: { database: false, migrations: false, model: true },
    });
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(expectJson(health, 200)).toMatchObject({ status: 'degraded', database: { reachable: false } });
    await t.app.close();
    await dropTestSchemas();
  });
});

describe('model configuration', () => {
  const none = { anthropicApiKey: undefined, openaiApiKey: undefined, openaiBaseUrl: undefined };
  it('needs a key for Anthropic, a key or an endpoint for OpenAI-compatible servers, nothing for scripted', () => {
    expect(isModelConfigured({ ...none, provider: 'scripted' })).toBe(true);
    expect(isModelConfigured({ ...none, provider: 'anthropic' })).toBe(false);
    expect(isModelConfigured({ ...none, provider: 'anthropic', anthropicApiKey: `sk-${randomUUID()}` })).toBe(true);
    expect(isModelConfigured({ ...none, provider: 'openai' })).toBe(false);
    expect(isModelConfigured({ ...none, provider: 'openai', openaiApiKey: 'k' })).toBe(true);
    expect(isModelConfigured({ ...none, provider: 'openai', openaiBaseUrl: 'http://127.0.0.1:11434/v1' })).toBe(true);
  });

  it('reports a model without its key as not ready', async () => {
    const t = await createTestApp('sqlite', {
      config: { llm: { ...testConfig().llm, provider: 'anthropic', anthropicApiKey: undefined } },
    });
    const res = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(expectJson<Ready>(res, 503).checks).toEqual({ database: true, migrations: true, model: false });
    await t.app.close();
    await t.database.close();
  });
});

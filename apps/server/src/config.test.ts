import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildConfig, ConfigError, loadOrCreateSecret, parseEnv } from './config.js';

describe('config', () => {
  it('applies the documented defaults', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    const config = buildConfig(parseEnv({ DATA_DIR: dataDir }));
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir,
      databaseUrl: undefined,
      sqliteFile: path.join(dataDir, 'studychat.sqlite'),
      logLevel: 'warn',
      env: 'development',
      webDistDir: undefined,
    });
    expect(config.llm.provider).toBe('scripted');
  });

  it('treats empty variables as unset', () => {
    const env = parseEnv({ PORT: '', LOG_LEVEL: '', DATABASE_URL: '' });
    expect(env.PORT).toBe(3000);
    expect(env.LOG_LEVEL).toBe('warn');
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('fails fast listing every problem at once', () => {
    let message = '';
    try {
      parseEnv({ PORT: 'abc', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', JWT_SECRET: 'short', ADMIN_EMAIL: 'nope' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    for (const name of ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'JWT_SECRET', 'ADMIN_EMAIL'])
      expect(message).toContain(name);
  });

  it('requires a key for a real model provider', () => {
    expect(() => parseEnv({ LLM_PROVIDER: 'anthropic' })).toThrow(/ANTHROPIC_API_KEY/);
    expect(() => parseEnv({ LLM_PROVIDER: 'openai' })).toThrow(/OPENAI_API_KEY/);
    expect(parseEnv({ LLM_PROVIDER: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' }).LLM_PROVIDER).toBe(
      'openai',
    );
  });

  it('parses a price table override and refuses a malformed one', () => {
    const env = parseEnv({ LLM_PRICES: '{"my-model":{"inputPerMTok":1,"outputPerMTok":2}}' });
    expect(env.LLM_PRICES).toEqual({ 'my-model': { inputPerMTok: 1, outputPerMTok: 2 } });
    expect(() => parseEnv({ LLM_PRICES: '{not json' })).toThrow(/LLM_PRICES/);
  });

  it('generates the JWT secret once, owner-only, and reuses it', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    const first = loadOrCreateSecret(dataDir);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadOrCreateSecret(dataDir)).toBe(first);
    const file = path.join(dataDir, 'jwt-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('serves the built web app in production only', () => {
    expect(buildConfig(parseEnv({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) }), '/srv/web').webDistDir).toBe(
      '/srv/web',
    );
    expect(buildConfig(parseEnv({ JWT_SECRET: 'x'.repeat(32) }), '/srv/web').webDistDir).toBeUndefined();
  });
});

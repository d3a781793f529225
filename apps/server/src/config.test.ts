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

  it('takes TRUST_PROXY as a list of proxy addresses and CIDR ranges, and refuses "true" with a clear error', () => {
    expect(parseEnv({}).TRUST_PROXY).toEqual([]);
    expect(parseEnv({ TRUST_PROXY: 'false' }).TRUST_PROXY).toEqual([]);
    expect(parseEnv({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback' }).TRUST_PROXY).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    for (const value of ['true', '2']) {
      expect(() => parseEnv({ TRUST_PROXY: value })).toThrow(
        /TRUST_PROXY: must list the trusted proxy addresses or CIDR ranges .* not "true" or a hop count/,
      );
    }
    let message = '';
    try {
      parseEnv({ TRUST_PROXY: '10.0.0.0/33,proxy.local,1.2.3.4/8/9' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('"10.0.0.0/33" has an invalid prefix length');
    expect(message).toContain('"proxy.local" is not an IP address or CIDR range');
    expect(message).toContain('"1.2.3.4/8/9" is not an IP address or CIDR range');
  });

  it('generates the password pepper once in the data folder unless PASSWORD_PEPPER is set', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    const first = buildConfig(parseEnv({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(32) })).passwordPepper;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(statSync(path.join(dataDir, 'password-pepper')).mode & 0o777).toBe(0o600);
    expect(buildConfig(parseEnv({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(32) })).passwordPepper).toBe(first);
    const set = 'p'.repeat(40);
    expect(buildConfig(parseEnv({ DATA_DIR: dataDir, PASSWORD_PEPPER: set })).passwordPepper).toBe(set);
    expect(() => parseEnv({ PASSWORD_PEPPER: 'short' })).toThrow(/PASSWORD_PEPPER: must be at least 32 characters/);
  });

  it('serves the built web app in production only', () => {
    const secrets = { JWT_SECRET: 'x'.repeat(32), PASSWORD_PEPPER: 'y'.repeat(32) };
    expect(buildConfig(parseEnv({ NODE_ENV: 'production', ...secrets }), '/srv/web').webDistDir).toBe('/srv/web');
    expect(buildConfig(parseEnv(secrets), '/srv/web').webDistDir).toBeUndefined();
  });
});

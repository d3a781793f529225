import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildConfig, ConfigError, loadOrCreateSecret, parseEnv, resolveWorkers } from './config.js';
import { loadEnvFile } from './env-file.js';
import { REPO_ROOT } from './paths.js';

const SECRET = 's'.repeat(40);
/** Both generated secrets given, so no test writes them into a data folder it did not make. */
const SECRETS = { JWT_SECRET: SECRET, PASSWORD_PEPPER: 'p'.repeat(40) };
const PG = 'postgres://postgres@127.0.0.1:5432/x';

function problemsOf(env: NodeJS.ProcessEnv): string {
  try {
    parseEnv(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return '';
}

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

  it('allows the manual test clock only with NODE_ENV=test', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    expect(buildConfig(parseEnv({ DATA_DIR: dataDir })).testClock).toBe(false);
    expect(buildConfig(parseEnv({ DATA_DIR: dataDir, NODE_ENV: 'test', TEST_CLOCK: 'manual' })).testClock).toBe(true);
    for (const NODE_ENV of ['production', 'development', undefined]) {
      expect(() => parseEnv({ NODE_ENV, TEST_CLOCK: 'manual' })).toThrow(/TEST_CLOCK: only allowed with NODE_ENV=test/);
    }
    expect(() => parseEnv({ NODE_ENV: 'test', TEST_CLOCK: 'fast' })).toThrow(ConfigError);
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
    // The prompt cache's own rates are columns of the table (docs/decisions/0076); an unknown kind is refused.
    expect(
      parseEnv({
        LLM_PRICES: '{"m":{"inputPerMTok":1,"outputPerMTok":2,"cacheWritePerMTok":1.25,"cacheReadPerMTok":0.1}}',
      }).LLM_PRICES,
    ).toEqual({ m: { inputPerMTok: 1, outputPerMTok: 2, cacheWritePerMTok: 1.25, cacheReadPerMTok: 0.1 } });
    expect(() => parseEnv({ LLM_PRICES: '{"m":{"inputPerMTok":1,"outputPerMTok":2,"audioPerMTok":0.1}}' })).toThrow(
      /LLM_PRICES/,
    );
  });

  it('refuses a model with no known price at start, naming it and how to give a price (LLM_PRICES)', () => {
    const local = { LLM_PROVIDER: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' };
    for (const model of ['openai/gpt-4o', 'llama3.1:8b']) {
      let message = '';
      try {
        parseEnv({ ...local, LLM_MODEL: model });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        message = (error as Error).message;
      }
      expect(message).toContain(`No price is known for the model "${model}"`);
      expect(message).toContain(`LLM_PRICES='{"${model}":{"inputPerMTok":3,"outputPerMTok":15}}'`);
    }
    const priced = {
      ...local,
      LLM_MODEL: 'openai/gpt-4o',
      LLM_PRICES: '{"openai/gpt-4o":{"inputPerMTok":2.5,"outputPerMTok":10}}',
    };
    expect(parseEnv(priced).LLM_MODEL).toBe('openai/gpt-4o');
    // Dated snapshots find their family's price; the scripted model is free whatever LLM_MODEL says.
    expect(parseEnv({ ...local, LLM_MODEL: 'gpt-4o-2024-08-06' }).LLM_MODEL).toBe('gpt-4o-2024-08-06');
    expect(parseEnv({ LLM_PROVIDER: 'scripted', LLM_MODEL: 'anything' }).LLM_PROVIDER).toBe('scripted');
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
    const paths = { webDistDir: '/srv/web' };
    expect(buildConfig(parseEnv({ NODE_ENV: 'production', ...SECRETS }), paths).webDistDir).toBe('/srv/web');
    expect(buildConfig(parseEnv(SECRETS), paths).webDistDir).toBeUndefined();
  });

  it('resolves DATA_DIR and the other relative paths from the repository root, wherever the command runs', () => {
    expect(JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).workspaces).toBeDefined();
    const fromRoot = buildConfig(parseEnv(SECRETS));
    expect(fromRoot.dataDir).toBe(path.join(REPO_ROOT, 'data'));
    expect(fromRoot.sqliteFile).toBe(path.join(REPO_ROOT, 'data', 'studychat.sqlite'));
    expect(fromRoot.backupDir).toBe(path.join(REPO_ROOT, 'data', 'backups'));
    const env = parseEnv({ ...SECRETS, DATA_DIR: 'var/study', BACKUP_DIR: 'bk', WEB_DIST_DIR: 'web' });
    const config = buildConfig(env, { rootDir: '/srv/app' });
    expect(config).toMatchObject({
      dataDir: '/srv/app/var/study',
      backupDir: '/srv/app/bk',
      webDistDir: '/srv/app/web',
    });
  });

  it('runs one process by default and refuses more than one on SQLite', () => {
    expect(buildConfig(parseEnv(SECRETS)).workers).toBe(1);
    expect(problemsOf({ WORKERS: '2', JWT_SECRET: SECRET })).toMatch(/WORKERS: 2 needs PostgreSQL \(DATABASE_URL\)/);
    expect(problemsOf({ WORKERS: 'auto', JWT_SECRET: SECRET })).toMatch(/WORKERS: auto needs PostgreSQL/);
    for (const bad of ['0', '-1', '1.5', 'many', '33'])
      expect(problemsOf({ WORKERS: bad, DATABASE_URL: PG, JWT_SECRET: SECRET })).toMatch(
        /WORKERS: must be a whole number/,
      );
  });

  it('needs one shared login secret and password pepper when several processes run', () => {
    const pepper = SECRETS.PASSWORD_PEPPER;
    expect(problemsOf({ WORKERS: '2', DATABASE_URL: PG, PASSWORD_PEPPER: pepper })).toMatch(
      /JWT_SECRET: required \(or JWT_SECRET_FILE\) when WORKERS is 2/,
    );
    expect(problemsOf({ WORKERS: '2', DATABASE_URL: PG, JWT_SECRET: SECRET })).toMatch(
      /PASSWORD_PEPPER: required \(or PASSWORD_PEPPER_FILE\) when WORKERS is 2/,
    );
    expect(problemsOf({ WORKERS: '2', DATABASE_URL: PG, ...SECRETS })).toBe('');
    expect(
      problemsOf({
        WORKERS: 'auto',
        DATABASE_URL: PG,
        JWT_SECRET_FILE: '/run/secrets/jwt',
        PASSWORD_PEPPER_FILE: '/p',
      }),
    ).toBe('');
    expect(problemsOf({ JWT_SECRET: SECRET, JWT_SECRET_FILE: '/x' })).toMatch(/JWT_SECRET_FILE: .*not both/);
    expect(problemsOf({ PASSWORD_PEPPER: pepper, PASSWORD_PEPPER_FILE: '/x' })).toMatch(
      /PASSWORD_PEPPER_FILE: .*not both/,
    );
    const config = buildConfig(parseEnv({ WORKERS: '4', DATABASE_URL: PG, ...SECRETS }));
    expect(config).toMatchObject({
      workers: 4,
      jwtSecret: SECRET,
      jwtSecretSource: 'env',
      passwordPepper: pepper,
      passwordPepperSource: 'env',
    });
  });

  it('reads the secrets from JWT_SECRET_FILE and PASSWORD_PEPPER_FILE, refusing a missing or short one', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    writeFileSync(path.join(dir, 'jwt'), `${SECRET}\n`);
    writeFileSync(path.join(dir, 'pepper'), `${SECRETS.PASSWORD_PEPPER}\n`);
    writeFileSync(path.join(dir, 'short'), 'abc\n');
    const files = buildConfig(parseEnv({ JWT_SECRET_FILE: 'jwt', PASSWORD_PEPPER_FILE: 'pepper', DATA_DIR: dir }), {
      rootDir: dir,
    });
    expect(files).toMatchObject({ passwordPepper: SECRETS.PASSWORD_PEPPER, passwordPepperSource: 'file' });
    expect(existsSync(path.join(dir, 'password-pepper'))).toBe(false);
    expect(() =>
      buildConfig(parseEnv({ ...SECRETS, PASSWORD_PEPPER: undefined, PASSWORD_PEPPER_FILE: 'short', DATA_DIR: dir }), {
        rootDir: dir,
      }),
    ).toThrow(/PASSWORD_PEPPER_FILE: .* must hold at least 32 characters/);
    const read = buildConfig(
      parseEnv({ JWT_SECRET_FILE: 'jwt', DATA_DIR: dir, PASSWORD_PEPPER: SECRETS.PASSWORD_PEPPER }),
      { rootDir: dir },
    );
    expect(read).toMatchObject({ jwtSecret: SECRET, jwtSecretSource: 'file' });
    expect(existsSync(path.join(dir, 'jwt-secret'))).toBe(false);
    expect(() => buildConfig(parseEnv({ JWT_SECRET_FILE: 'short', DATA_DIR: dir }), { rootDir: dir })).toThrow(
      /at least 32/,
    );
    expect(() => buildConfig(parseEnv({ JWT_SECRET_FILE: 'nope', DATA_DIR: dir }), { rootDir: dir })).toThrow(
      /cannot read/,
    );
  });

  it('resolves WORKERS=auto to the cores, at most 32, and shares PostgreSQL connections between workers', () => {
    expect(resolveWorkers('auto', 8)).toBe(8);
    expect(resolveWorkers('auto', 128)).toBe(32);
    expect(resolveWorkers(3, 128)).toBe(3);
    const pool = (workers: string, size?: string) =>
      buildConfig(parseEnv({ WORKERS: workers, DATABASE_URL: PG, ...SECRETS, DATABASE_POOL_SIZE: size }))
        .databasePoolSize;
    expect(pool('1')).toBe(10);
    expect(pool('2')).toBe(10);
    expect(pool('16')).toBe(5);
    expect(pool('32')).toBe(2);
    expect(pool('16', '3')).toBe(3);
  });

  it('builds links from PUBLIC_URL, or the local port', () => {
    expect(buildConfig(parseEnv({ ...SECRETS, PORT: '4000' })).publicUrl).toBe('http://localhost:4000');
    const env = parseEnv({ ...SECRETS, PUBLIC_URL: 'https://study.example.org/' });
    expect(buildConfig(env).publicUrl).toBe('https://study.example.org');
    expect(problemsOf({ PUBLIC_URL: 'ftp://x.org' })).toMatch(/PUBLIC_URL/);
  });
});

describe('settings file', () => {
  it('adds the .env variables that the environment does not set', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'envfile-'));
    const file = path.join(dir, 'settings.env');
    writeFileSync(file, '# comment\nPORT=4100\nDATA_DIR="./my data"\nLOG_LEVEL=info\n');
    const env: NodeJS.ProcessEnv = { ENV_FILE: file, PORT: '5000' };
    expect(loadEnvFile(env)).toBe(file);
    expect(env).toMatchObject({ PORT: '5000', DATA_DIR: './my data', LOG_LEVEL: 'info' });
  });

  it('starts on the embedded defaults when .env.example is copied as it is (SQLite, scripted model)', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'envexample-'));
    // DATA_DIR given so the generated secrets land in a folder this test made, not the repository's data/.
    const env: NodeJS.ProcessEnv = { ENV_FILE: path.join(REPO_ROOT, '.env.example'), DATA_DIR: dataDir };
    expect(loadEnvFile(env)).toBe(path.join(REPO_ROOT, '.env.example'));
    const config = buildConfig(parseEnv(env));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.sqliteFile).toBe(path.join(dataDir, 'studychat.sqlite'));
    expect(config.llm.provider).toBe('scripted');
    expect(config.workers).toBe(1);
  });

  it('reads nothing when the file does not exist', () => {
    const env: NodeJS.ProcessEnv = { ENV_FILE: 'no/such/file.env' };
    expect(loadEnvFile(env)).toBeUndefined();
    expect(Object.keys(env)).toEqual(['ENV_FILE']);
  });
});

import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { CHAT_LIMIT_MAX, DEFAULT_ADMIT_PERCENT, ModelPriceSchema, type ChatLimits } from '@studychat/contracts';
import { z } from 'zod';
import { defaultMaxConnections } from './connection-ceiling.js';
import { mergePrices, noPriceMessage, priceFor } from './llm/pricing.js';
import { DEFAULT_WEB_DIST_DIR, REPO_ROOT } from './paths.js';

const LogLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);
const emptyAsUndefined = (v: unknown) => (v === '' ? undefined : v);
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());
const positiveInt = (fallback: number) =>
  z.preprocess(emptyAsUndefined, z.coerce.number().int().positive().default(fallback));

/** Proxy presets that proxy-addr (behind Fastify's trustProxy) understands. */
const PROXY_PRESETS = ['loopback', 'linklocal', 'uniquelocal'];

/** One trusted proxy: an IPv4 or IPv6 address, a CIDR range, or a preset; the problem in words otherwise. */
export function trustedProxyProblem(entry: string): string | undefined {
  if (PROXY_PRESETS.includes(entry)) return undefined;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return `"${entry}" is not an IP address or CIDR range`;
  if (prefix === undefined) return undefined;
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
  if (!(bits >= 0 && bits <= (version === 4 ? 32 : 128))) return `"${entry}" has an invalid prefix length`;
  return undefined;
}

/**
 * TRUST_PROXY: the proxies whose X-Forwarded-For is believed, as a comma-separated list of addresses and
 * CIDR ranges. Never "true": trusting every sender lets anyone forge their address, which removes the
 * per-address login limits and can aim them at someone else (docs/decisions/0017-login-limits.md).
 */
const TrustProxy = z.string().transform((value, ctx) => {
  const text = value.trim();
  if (text === 'false') return [];
  if (text === 'true' || /^\d+$/.test(text)) {
    ctx.addIssue({
      code: 'custom',
      message:
        'must list the trusted proxy addresses or CIDR ranges (e.g. "127.0.0.1,10.0.0.0/8"), not "true" or a hop count: trusting every sender lets anyone forge their address',
    });
    return z.NEVER;
  }
  const entries = text.split(',').map((e) => e.trim());
  for (const entry of entries) {
    const problem = trustedProxyProblem(entry);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }
  return entries;
});

/** Most server processes one machine runs; also keeps workers x pool size within PostgreSQL's connections. */
export const MAX_WORKERS = 32;
/** PostgreSQL connections the workers share when DATABASE_POOL_SIZE is unset (server default max is 100). */
const PG_CONNECTION_BUDGET = 80;
const SECRET_HINT = 'generate one with: openssl rand -hex 32';

/** Password checks at once: one per core (argon2 also runs threads of its own), at least 2. */
function defaultHashConcurrency(): number {
  return Math.max(2, availableParallelism());
}

/** USD per million tokens, per model; overridable with LLM_PRICES. */
export const PriceTable = z.record(z.string(), ModelPriceSchema);
export type PriceTable = z.infer<typeof PriceTable>;

/**
 * With these a trickling body is cut within 25 s (the request deadline plus Node's 5 s check interval);
 * 800 connections stay well under the common open-file limit of 1,024 (the tests' value; the server's
 * default follows the process's own limit: MAX_CONNECTIONS below).
 */
export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 20_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 60_000,
  maxConnections: 800,
};

/** Every environment variable the server reads, validated once at start (docs/operating.md lists them). */
export const EnvSchema = z.object({
  NODE_ENV: z.preprocess(emptyAsUndefined, z.enum(['development', 'production', 'test']).default('development')),
  PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyAsUndefined, z.string().default('127.0.0.1')),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('./data')),
  DATABASE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  DATABASE_POOL_SIZE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(100).optional()),
  /** Server processes: a number, or `auto` for one per CPU core (PostgreSQL only when more than 1). */
  WORKERS: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .default('1')
      .transform((value, ctx): number | 'auto' => {
        if (value === 'auto') return 'auto';
        const n = /^\d+$/.test(value) ? Number(value) : NaN;
        if (n >= 1 && n <= MAX_WORKERS) return n;
        ctx.addIssue({ code: 'custom', message: `must be a whole number from 1 to ${MAX_WORKERS}, or auto` });
        return z.NEVER;
      }),
  ),
  JWT_SECRET: z.preprocess(emptyAsUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  /** A file holding the secret (e.g. a Docker secret), instead of JWT_SECRET. */
  JWT_SECRET_FILE: optionalString,
  /** The address participants and admins use (links printed by `npm run demo`), e.g. https://study.example.org. */
  PUBLIC_URL: z.preprocess(
    emptyAsUndefined,
    z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .transform((u) => u.replace(/\/+$/, ''))
      .optional(),
  ),
  /** Where `npm run backup` writes (default DATA_DIR/backups). */
  BACKUP_DIR: optionalString,
  TOKEN_TTL_HOURS: positiveInt(12),
  ADMIN_TOTP_REQUIRED: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).default('false')),
  ADMIN_EMAIL: z.preprocess(emptyAsUndefined, z.email('must be an email address').optional()),
  ADMIN_PASSWORD: z.preprocess(emptyAsUndefined, z.string().min(12, 'must be at least 12 characters').optional()),
  LOG_LEVEL: z.preprocess(emptyAsUndefined, LogLevel.default('warn')),
  TRUST_PROXY: z.preprocess(emptyAsUndefined, TrustProxy.default([])),
  PASSWORD_PEPPER: z.preprocess(emptyAsUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  /** A file holding the pepper (e.g. a Docker secret), instead of PASSWORD_PEPPER. */
  PASSWORD_PEPPER_FILE: optionalString,
  HASH_CONCURRENCY: positiveInt(defaultHashConcurrency()),
  HASH_QUEUE_LIMIT: positiveInt(64),
  BODY_LIMIT_BYTES: positiveInt(100_000),
  HEADERS_TIMEOUT_MS: positiveInt(DEFAULT_HTTP_LIMITS.headersTimeoutMs),
  REQUEST_TIMEOUT_MS: positiveInt(DEFAULT_HTTP_LIMITS.requestTimeoutMs),
  KEEP_ALIVE_TIMEOUT_MS: positiveInt(DEFAULT_HTTP_LIMITS.keepAliveTimeoutMs),
  IDLE_TIMEOUT_MS: positiveInt(DEFAULT_HTTP_LIMITS.idleTimeoutMs),
  /** Default: a margin below the open-file limit (connection-ceiling.ts); 800 where it cannot be read. */
  MAX_CONNECTIONS: positiveInt(defaultMaxConnections()),
  WEB_DIST_DIR: optionalString,
  /**
   * `manual` lets the browser tests move the server clock forward (POST /api/test/clock, admins only), so
   * they walk the timed sections without waiting; refused unless NODE_ENV=test (docs/decisions/0011).
   */
  TEST_CLOCK: z.preprocess(emptyAsUndefined, z.enum(['manual']).optional()),
  LLM_PROVIDER: z.preprocess(emptyAsUndefined, z.enum(['anthropic', 'openai', 'scripted']).default('scripted')),
  LLM_MODEL: optionalString,
  ANTHROPIC_API_KEY: optionalString,
  ANTHROPIC_BASE_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  /** Prolific's API (docs/decisions/0083-prolific-api.md); tests point it at their fake. */
  PROLIFIC_API_URL: z.preprocess(emptyAsUndefined, z.url().default('https://api.prolific.com')),
  LLM_MAX_TOKENS: positiveInt(2048),
  LLM_THINKING_BUDGET: positiveInt(1024),
  LLM_TIMEOUT_MS: positiveInt(60_000),
  LLM_RETRY_BUDGET_MS: positiveInt(20_000),
  /** Model calls in flight at once across every server process (docs/decisions/0076); unset: no limit. */
  LLM_CONCURRENCY: z.preprocess(emptyAsUndefined, z.coerce.number().int().positive().optional()),
  /** Input and output tokens the provider allows per minute, across every server process; unset: no limit. */
  LLM_TOKENS_PER_MINUTE: z.preprocess(emptyAsUndefined, z.coerce.number().int().positive().optional()),
  /** Longest a reply waits its turn (the queue, a provider's retry-after) before the participant is told to retry. */
  LLM_QUEUE_MAX_WAIT_MS: positiveInt(90_000),
  /** Failed attempts of a condition's model in one reply before its fallback model answers instead. */
  LLM_FALLBACK_AFTER: positiveInt(2),
  CHAT_MAX_MESSAGES: positiveInt(30),
  CHAT_MAX_MESSAGE_CHARS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().positive().max(CHAT_LIMIT_MAX.maxMessageChars).default(1000),
  ),
  CHAT_HISTORY_TOKENS: positiveInt(8000),
  CHAT_PARTICIPANT_TOKENS: positiveInt(150_000),
  CHAT_BUDGET_USD: z.preprocess(emptyAsUndefined, z.coerce.number().positive().optional()),
  /** Percent of a chat budget spent after which no new participant may join (docs/decisions/0073). */
  CHAT_ADMIT_PERCENT: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(1).max(CHAT_LIMIT_MAX.admitPercent).default(DEFAULT_ADMIT_PERCENT),
  ),
  LLM_PRICES: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .transform((s, ctx) => {
        try {
          return JSON.parse(s) as unknown;
        } catch {
          ctx.addIssue({ code: 'custom', message: 'must be JSON' });
          return z.NEVER;
        }
      })
      .pipe(PriceTable)
      .optional(),
  ),
});
export type Env = z.infer<typeof EnvSchema>;

export interface LlmConfig {
  provider: 'anthropic' | 'openai' | 'scripted';
  model: string;
  anthropicApiKey: string | undefined;
  anthropicBaseUrl: string | undefined;
  openaiApiKey: string | undefined;
  openaiBaseUrl: string | undefined;
  maxTokens: number;
  thinkingBudget: number;
  timeoutMs: number;
  retryBudgetMs: number;
  prices: PriceTable;
  /** The shared rate limit (docs/decisions/0076); absent: none. */
  concurrency?: number | undefined;
  tokensPerMinute?: number | undefined;
  /** Longest a reply waits its turn; absent: 90 s. */
  queueMaxWaitMs?: number | undefined;
  /** Failed attempts before a condition's fallback model answers; absent: 2. */
  fallbackAfter?: number | undefined;
}

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** Base address for links shown to people (PUBLIC_URL, else http://localhost:PORT). */
  publicUrl: string;
  /** Server processes: 1 runs in this process; more run as node:cluster workers (PostgreSQL only). */
  workers: number;
  dataDir: string;
  backupDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL connections per server process. */
  databasePoolSize: number;
  sqliteFile: string;
  jwtSecret: string;
  /** Where the secret came from: generated ones are kept in DATA_DIR/jwt-secret. */
  jwtSecretSource: SecretSource;
  tokenTtlSeconds: number;
  /** Admins and analysts must set up TOTP two-factor authentication before using the admin area. */
  adminTotpRequired: boolean;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  logLevel: z.infer<typeof LogLevel>;
  /** Trusted proxy addresses and CIDR ranges (X-Forwarded-For from them is believed); empty trusts none. */
  trustProxy: string[];
  /** Server-side key of the HMAC that stores generated study passwords (docs/decisions/0018-study-password-hmac.md). */
  passwordPepper: string;
  passwordPepperSource: SecretSource;
  /** At most this many argon2 password checks at once, and this many waiting; beyond, logins get 503. */
  hashConcurrency: number;
  hashQueueLimit: number;
  bodyLimitBytes: number;
  /** Connection limits against slow and idle clients (docs/decisions/0019-timeouts-and-connections.md). */
  http: HttpLimits;
  /** Built web app served in production; undefined serves the API only. */
  webDistDir: string | undefined;
  /** Browser tests move the server clock (only with env 'test'). */
  testClock: boolean;
  llm: LlmConfig;
  /** The chat's limits for experiments that set none of their own (docs/operating.md, "Chat limits"). */
  chatLimits: ChatLimits;
  /** The monitor's event stream timing; tests shorten it (modules/monitor/monitor.routes.ts has the defaults). */
  monitorStream?: { pollMs?: number; maxMs?: number; keepAliveMs?: number; snapshotMs?: number };
  /** Prolific's API address and the time-out of one call (modules/prolific); absent: Prolific's own, 10 s. */
  prolific?: { apiUrl?: string; timeoutMs?: number };
}

export interface HttpLimits {
  /** All request headers must arrive within this. */
  headersTimeoutMs: number;
  /** The whole request (headers and body) must arrive within this: a trickling body is cut. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** A connection on which nothing moves for this long is closed (event streams send a heartbeat). */
  idleTimeoutMs: number;
  /** Connections beyond this are closed at once, leaving file handles for the database and files. */
  maxConnections: number;
}

export class ConfigError extends Error {}

/** The model each provider asks for when none is named (LLM_MODEL, or a study arm naming only its provider). */
export const DEFAULT_MODELS = {
  anthropic: 'claude-sonnet-5-5',
  openai: 'gpt-5-mini',
  scripted: 'scripted-offline',
} as const;

/** Resolves WORKERS=auto to one process per core, at most MAX_WORKERS. */
export function resolveWorkers(workers: Env['WORKERS'], cores: number = availableParallelism()): number {
  return workers === 'auto' ? Math.max(1, Math.min(cores, MAX_WORKERS)) : workers;
}

/** Parses the environment; throws a ConfigError listing every problem at once. */
export function parseEnv(env: NodeJS.ProcessEnv): Env {
  const result = EnvSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = result.data;
  const problems: string[] = [];
  if (e.LLM_PROVIDER === 'anthropic' && !e.ANTHROPIC_API_KEY)
    problems.push('  - ANTHROPIC_API_KEY: required when LLM_PROVIDER=anthropic');
  if (e.LLM_PROVIDER === 'openai' && !e.OPENAI_API_KEY && !e.OPENAI_BASE_URL)
    problems.push('  - OPENAI_API_KEY: required when LLM_PROVIDER=openai (or set OPENAI_BASE_URL for a local server)');
  if (e.ADMIN_PASSWORD && !e.ADMIN_EMAIL) problems.push('  - ADMIN_EMAIL: required when ADMIN_PASSWORD is set');
  if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS)
    problems.push('  - HEADERS_TIMEOUT_MS: must not be longer than REQUEST_TIMEOUT_MS');
  if (e.JWT_SECRET && e.JWT_SECRET_FILE)
    problems.push('  - JWT_SECRET_FILE: set JWT_SECRET or JWT_SECRET_FILE, not both');
  if (e.PASSWORD_PEPPER && e.PASSWORD_PEPPER_FILE)
    problems.push('  - PASSWORD_PEPPER_FILE: set PASSWORD_PEPPER or PASSWORD_PEPPER_FILE, not both');
  if (e.WORKERS !== 1 && !e.DATABASE_URL)
    problems.push(
      `  - WORKERS: ${e.WORKERS} needs PostgreSQL (DATABASE_URL); SQLite allows one server process, so set WORKERS=1 or DATABASE_URL`,
    );
  if (e.WORKERS !== 1 && !e.JWT_SECRET && !e.JWT_SECRET_FILE)
    problems.push(
      `  - JWT_SECRET: required (or JWT_SECRET_FILE) when WORKERS is ${e.WORKERS}, so every server process accepts the others' logins; ${SECRET_HINT}`,
    );
  if (e.WORKERS !== 1 && !e.PASSWORD_PEPPER && !e.PASSWORD_PEPPER_FILE)
    problems.push(
      `  - PASSWORD_PEPPER: required (or PASSWORD_PEPPER_FILE) when WORKERS is ${e.WORKERS}, so every server process accepts the study logins the others generated; ${SECRET_HINT}`,
    );
  if (e.TEST_CLOCK && e.NODE_ENV !== 'test') problems.push('  - TEST_CLOCK: only allowed with NODE_ENV=test');
  if (e.TEST_CLOCK && e.WORKERS !== 1) problems.push('  - TEST_CLOCK: only with WORKERS=1 (one clock to move)');
  const model = e.LLM_MODEL ?? DEFAULT_MODELS[e.LLM_PROVIDER];
  // Money is counted as the provider bills it: a model whose cost cannot be counted is refused (0073). The
  // scripted model is free whatever LLM_MODEL says.
  if (e.LLM_PROVIDER !== 'scripted' && priceFor(model, mergePrices(e.LLM_PRICES ?? {})) === null)
    problems.push(`  - LLM_MODEL: ${noPriceMessage(model)}`);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return e;
}

/** Reads a secret from the data folder (`jwt-secret` unless named), creating it (owner-only) on first start. */
export function loadOrCreateSecret(dataDir: string, name = 'jwt-secret'): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

/** The chat model's settings alone (the model check needs no data folder or secret). */
export function buildLlmConfig(e: Env): LlmConfig {
  return {
    provider: e.LLM_PROVIDER,
    model: e.LLM_MODEL ?? DEFAULT_MODELS[e.LLM_PROVIDER],
    anthropicApiKey: e.ANTHROPIC_API_KEY,
    anthropicBaseUrl: e.ANTHROPIC_BASE_URL,
    openaiApiKey: e.OPENAI_API_KEY,
    openaiBaseUrl: e.OPENAI_BASE_URL,
    maxTokens: e.LLM_MAX_TOKENS,
    thinkingBudget: e.LLM_THINKING_BUDGET,
    timeoutMs: e.LLM_TIMEOUT_MS,
    retryBudgetMs: e.LLM_RETRY_BUDGET_MS,
    prices: e.LLM_PRICES ?? {},
    concurrency: e.LLM_CONCURRENCY,
    tokensPerMinute: e.LLM_TOKENS_PER_MINUTE,
    queueMaxWaitMs: e.LLM_QUEUE_MAX_WAIT_MS,
    fallbackAfter: e.LLM_FALLBACK_AFTER,
  };
}

/** Where a secret came from: generated ones are kept in DATA_DIR. */
export type SecretSource = 'env' | 'file' | 'generated';

/** Reads a secret file named by `variable`; throws a ConfigError when it is missing or too short. */
export function readSecretFile(file: string, variable = 'JWT_SECRET_FILE'): string {
  let secret: string;
  try {
    secret = readFileSync(file, 'utf8').trim();
  } catch {
    throw new ConfigError(`Invalid configuration:\n  - ${variable}: cannot read ${file}`);
  }
  if (secret.length < 32)
    throw new ConfigError(`Invalid configuration:\n  - ${variable}: ${file} must hold at least 32 characters`);
  return secret;
}

/** A secret from its variable, else from the file its `_FILE` variable names, else generated in the data folder. */
function resolveSecret(
  value: string | undefined,
  file: { variable: string; path: string | undefined },
  generated: { dataDir: string; name: string },
  rootDir: string,
): { secret: string; source: SecretSource } {
  if (value) return { secret: value, source: 'env' };
  if (file.path) return { secret: readSecretFile(path.resolve(rootDir, file.path), file.variable), source: 'file' };
  return { secret: loadOrCreateSecret(generated.dataDir, generated.name), source: 'generated' };
}

/** Where relative paths are resolved from and where the built web app is (tests pass their own). */
export interface ConfigPaths {
  rootDir?: string;
  webDistDir?: string;
}

/**
 * Turns the parsed environment into the app's config. Relative DATA_DIR, BACKUP_DIR, WEB_DIST_DIR and
 * JWT_SECRET_FILE are resolved against the repository root, never against the current folder.
 */
export function buildConfig(e: Env, paths: ConfigPaths = {}): AppConfig {
  const rootDir = paths.rootDir ?? REPO_ROOT;
  const dataDir = path.resolve(rootDir, e.DATA_DIR);
  const workers = resolveWorkers(e.WORKERS);
  const defaultWebDist = paths.webDistDir ?? DEFAULT_WEB_DIST_DIR;
  const jwt = resolveSecret(
    e.JWT_SECRET,
    { variable: 'JWT_SECRET_FILE', path: e.JWT_SECRET_FILE },
    { dataDir, name: 'jwt-secret' },
    rootDir,
  );
  const pepper = resolveSecret(
    e.PASSWORD_PEPPER,
    { variable: 'PASSWORD_PEPPER_FILE', path: e.PASSWORD_PEPPER_FILE },
    { dataDir, name: 'password-pepper' },
    rootDir,
  );
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    workers,
    dataDir,
    backupDir: path.resolve(rootDir, e.BACKUP_DIR ?? path.join(dataDir, 'backups')),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE ?? Math.min(10, Math.max(2, Math.floor(PG_CONNECTION_BUDGET / workers))),
    sqliteFile: path.join(dataDir, 'studychat.sqlite'),
    jwtSecret: jwt.secret,
    jwtSecretSource: jwt.source,
    tokenTtlSeconds: e.TOKEN_TTL_HOURS * 3600,
    adminTotpRequired: e.ADMIN_TOTP_REQUIRED === 'true',
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    passwordPepper: pepper.secret,
    passwordPepperSource: pepper.source,
    hashConcurrency: e.HASH_CONCURRENCY,
    hashQueueLimit: e.HASH_QUEUE_LIMIT,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    prolific: { apiUrl: e.PROLIFIC_API_URL },
    http: {
      headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
      idleTimeoutMs: e.IDLE_TIMEOUT_MS,
      maxConnections: e.MAX_CONNECTIONS,
    },
    webDistDir: e.WEB_DIST_DIR
      ? path.resolve(rootDir, e.WEB_DIST_DIR)
      : e.NODE_ENV === 'production'
        ? defaultWebDist
        : undefined,
    testClock: e.NODE_ENV === 'test' && e.TEST_CLOCK === 'manual',
    llm: buildLlmConfig(e),
    chatLimits: {
      maxMessages: e.CHAT_MAX_MESSAGES,
      maxMessageChars: e.CHAT_MAX_MESSAGE_CHARS,
      replyTokens: e.LLM_MAX_TOKENS,
      historyTokens: e.CHAT_HISTORY_TOKENS,
      participantTokens: e.CHAT_PARTICIPANT_TOKENS,
      budgetUsd: e.CHAT_BUDGET_USD ?? null,
      admitPercent: e.CHAT_ADMIT_PERCENT,
    },
  };
}

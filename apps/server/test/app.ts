import { randomUUID } from 'node:crypto';
import type { Role } from '@studychat/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../src/app.js';
import { DEFAULT_HTTP_LIMITS, type AppConfig } from '../src/config.js';
import type { Database } from '../src/db/database.js';
import type { AppDeps } from '../src/lib/deps.js';
import { databaseStudies } from '../src/modules/studies/study-source.js';
import { createStudyScriptedModel } from '../src/llm/create-chat-model.js';
import { insertSession } from '../src/modules/auth/session.repository.js';
import { TokenSigner } from '../src/modules/auth/token.js';
import { createUser } from '../src/modules/users/users.service.js';
import { createTestDatabase, dropTestSchemas, type TestDialect } from './databases.js';

export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    env: 'test',
    port: 0,
    host: '127.0.0.1',
    publicUrl: 'http://localhost:3000',
    workers: 1,
    dataDir: '/tmp/studychat-test',
    backupDir: '/tmp/studychat-test/backups',
    databaseUrl: undefined,
    databasePoolSize: 4,
    sqliteFile: ':memory:',
    jwtSecret: 'test-secret-test-secret-test-secret-0123456789',
    jwtSecretSource: 'env',
    tokenTtlSeconds: 3600,
    adminTotpRequired: false,
    adminEmail: undefined,
    adminPassword: undefined,
    logLevel: 'silent',
    trustProxy: [],
    passwordPepper: 'test-pepper-test-pepper-test-pepper-0123456789',
    passwordPepperSource: 'env',
    hashConcurrency: 4,
    hashQueueLimit: 64,
    bodyLimitBytes: 100_000,
    http: DEFAULT_HTTP_LIMITS,
    webDistDir: undefined,
    testClock: false,
    llm: {
      provider: 'scripted',
      model: 'scripted-offline',
      anthropicApiKey: undefined,
      anthropicBaseUrl: undefined,
      openaiApiKey: undefined,
      openaiBaseUrl: undefined,
      maxTokens: 1024,
      thinkingBudget: 1024,
      timeoutMs: 5000,
      retryBudgetMs: 2000,
      // The tests' switchable model (test/chat.ts) is free unless a test prices it.
      prices: { switchable: { inputPerMTok: 0, outputPerMTok: 0 } },
    },
    chatLimits: {
      maxMessages: 30,
      maxMessageChars: 1000,
      replyTokens: 1024,
      historyTokens: 8000,
      participantTokens: 150_000,
      budgetUsd: null,
      admitPercent: 95,
    },
    // Streams end quickly so that inject() (the matrix, the fuzzer) gets a whole response; every monitor read is fresh.
    monitorStream: { pollMs: 20, maxMs: 60, keepAliveMs: 1000, snapshotMs: 0 },
    // Never Prolific itself: a closed port on this machine unless a test starts the fake (test/fakes/prolific-fake.ts).
    prolific: { apiUrl: 'http://127.0.0.1:1', timeoutMs: 1000 },
    ...overrides,
  };
}

/** A controllable clock: tests move time instead of sleeping. */
export class TestClock {
  constructor(public now = new Date('2026-11-20T10:00:00.000Z')) {}
  readonly fn = () => new Date(this.now);
  advance(ms: number): void {
    this.now = new Date(this.now.getTime() + ms);
  }
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  deps: AppDeps;
  clock: TestClock;
  dialect: TestDialect;
}

export interface TestAppOptions {
  config?: Partial<AppConfig>;
  deps?: Partial<Omit<AppDeps, 'database'>>;
}

export async function createTestApp(dialect: TestDialect, options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase(dialect);
  const clock = new TestClock();
  const deps: AppDeps = {
    database,
    clock: clock.fn,
    newId: randomUUID,
    random: Math.random,
    llm: createStudyScriptedModel(),
    // A reply waiting its turn at the provider moves the test clock instead of waiting (docs/decisions/0076).
    sleep: async (ms) => {
      clock.advance(ms);
      await new Promise((resolve) => setImmediate(resolve));
    },
    ...databaseStudies(database),
    ...options.deps,
  };
  const app = await buildApp(testConfig(options.config), deps);
  await app.ready();
  return { app, database, deps, clock, dialect };
}

/**
 * Builds one app per test file and dialect, closed after the file's tests:
 * `const t = useTestApp(dialect)` then `t().app.inject(...)` inside tests.
 */
export function useTestApp(dialect: TestDialect, options: TestAppOptions = {}): () => TestApp {
  let current: TestApp | undefined;
  beforeAll(async () => {
    current = await createTestApp(dialect, options);
  });
  afterAll(async () => {
    await current?.app.close();
    await current?.database.close();
    await dropTestSchemas();
  });
  return () => {
    if (!current) throw new Error('test app is not ready');
    return current;
  };
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
  token: string;
  /** `{ authorization: 'Bearer …' }` for inject calls. */
  headers: { authorization: string };
}

let userCounter = 0;

/** Creates an account and logs it in through the real login route. */
export async function createAndLogin(
  t: TestApp,
  options: { isAdmin?: boolean; email?: string; metadata?: Record<string, unknown> } = {},
): Promise<TestUser> {
  userCounter += 1;
  const email = options.email ?? `user${userCounter}-${randomUUID().slice(0, 8)}@study.test`;
  const password = `pw-${randomUUID()}`;
  const { id } = await createUser(t.deps, {
    email,
    password,
    isAdmin: options.isAdmin ?? false,
    metadata: options.metadata,
  });
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const token = (res.json() as { token: string }).token;
  return { id, email, password, token, headers: { authorization: `Bearer ${token}` } };
}

/**
 * A new session and token for an existing account, without the login route: for tests that end sessions
 * (logout) or trip login limits and still need the caller afterwards.
 */
export async function newSession(
  t: TestApp,
  user: Pick<TestUser, 'id' | 'email'> & Partial<TestUser>,
  role: Role,
): Promise<TestUser> {
  const now = t.clock.now;
  const sessionId = randomUUID();
  const ttl = testConfig().tokenTtlSeconds;
  await insertSession(t.database.db, {
    id: sessionId,
    user_id: user.id,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + ttl * 1000).toISOString(),
  });
  const signer = new TokenSigner(testConfig().jwtSecret);
  const payload = { userId: user.id, email: user.email, isAdmin: role === 'admin', role };
  const token = await signer.sign(payload, sessionId, now, ttl);
  return { password: '', ...user, token, headers: { authorization: `Bearer ${token}` } };
}

/** Parses a JSON reply, failing with the body when the status is not the expected one. */
export function expectJson<T = unknown>(res: LightMyRequestResponse, status: number): T {
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`);
  return res.json() as T;
}

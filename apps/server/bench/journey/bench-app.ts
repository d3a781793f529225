import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inBuiltInShape, type StudyVersion, type StudyVersionSummary } from '@studychat/contracts';
import { buildApp } from '../../src/app.js';
import { buildConfig, parseEnv } from '../../src/config.js';
import { createDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import { defaultDeps } from '../../src/default-deps.js';
import { createOffsetClock, type ClockControl } from '../../src/lib/test-clock.js';
import type { ChatModel } from '../../src/llm/chat-model.js';
import { createChatModel } from '../../src/llm/create-chat-model.js';
import { createUser } from '../../src/modules/users/users.service.js';
import { BENCH_SECTION_SECONDS, benchStudy } from './bench-study.js';

// The app the journey benches run: the real app (scripted model, as `LLM_PROVIDER=scripted` runs it, logs
// off) on a fresh SQLite file or PostgreSQL schema, on a clock the bench can move, with one experiment and
// N study logins made through the admin API. The experiment runs the bench's own study version
// (bench-study.ts: every section's minimum at 1 s), so the load runs on the real clock.

export interface BenchApp {
  app: FastifyInstance;
  database: Database;
  clockControl: ClockControl;
  experimentId: string;
  credentials: { email: string; password: string }[];
  /** Closes the app and the database, and drops the PostgreSQL schema. */
  close(): Promise<void>;
}

async function openDatabase(
  dialect: 'sqlite' | 'postgres',
  sqliteFile: string,
  url: string | undefined,
  pgPoolSize: number | undefined,
): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const database = createDatabase({ sqliteFile });
    await migrateToLatest(database.db);
    return { database, drop: () => Promise.resolve() };
  }
  if (!url) throw new Error('BENCH_DATABASE_URL is not set');
  const schema = `bench_${randomUUID().replaceAll('-', '')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await admin(`create schema ${schema}`);
  const database = createDatabase({ databaseUrl: url, sqliteFile: '', pgSchema: schema, pgPoolSize });
  await migrateToLatest(database.db, { schema });
  return { database, drop: () => admin(`drop schema if exists ${schema} cascade`) };
}

export async function startBenchApp(options: {
  dialect: 'sqlite' | 'postgres';
  participants: number;
  databaseUrl?: string | undefined;
  /** PostgreSQL connections in the pool (the app's default of 10 otherwise). */
  pgPoolSize?: number;
  /** The model; the scripted one as a running server has it (a pause between words) otherwise. */
  chatModel?: ChatModel;
  /** Hooks to add before the app starts (it starts with the first request that sets the study up). */
  beforeStart?: (app: FastifyInstance, database: Database) => void;
}): Promise<BenchApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'studychat-journey-'));
  const config = buildConfig(
    parseEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'production', LLM_PROVIDER: 'scripted' }),
  );
  const { database, drop } = await openDatabase(
    options.dialect,
    config.sqliteFile,
    options.databaseUrl,
    options.pgPoolSize,
  );
  const clockControl = createOffsetClock();
  const deps = {
    ...defaultDeps(database, options.chatModel ?? createChatModel(config.llm)),
    clock: clockControl.clock,
  };
  const app = await buildApp({ ...config, webDistDir: undefined }, deps);
  options.beforeStart?.(app, database);

  const adminEmail = 'admin@bench.test';
  const adminPassword = 'bench-admin-password-123';
  await createUser(deps, { email: adminEmail, password: adminPassword, isAdmin: true });
  async function call<T>(
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    token: string | null,
    payload?: object,
  ): Promise<T> {
    const res = await app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  }
  const { token } = await call<{ token: string }>('POST', '/api/auth/login', null, {
    email: adminEmail,
    password: adminPassword,
  });
  const experiment = await call<{ id: string }>('POST', '/api/experiments', token, { name: 'Journey bench' });
  const versions = await call<StudyVersionSummary[]>('GET', '/api/admin/study-versions', token);
  const builtIn = versions.find((v) => v.is_default);
  if (!builtIn) throw new Error('no built-in study version');
  const { definition } = await call<StudyVersion>('GET', `/api/admin/study-versions/${builtIn.id}`, token);
  const version = await call<StudyVersion>('POST', '/api/admin/study-versions', token, {
    label: `Journey bench (sections ${BENCH_SECTION_SECONDS} s)`,
    definition: benchStudy(inBuiltInShape(definition)),
  });
  await call('PUT', `/api/experiments/${experiment.id}/study-version`, token, { study_version_id: version.id });
  await call('PUT', `/api/experiments/${experiment.id}/completion-codes`, token, {
    codes: { complete: 'BENCH-COMPLETE', exitnoqualms: 'BENCH-NOQUALMS', exitceiling: 'BENCH-CEILING' },
  });
  const credentials: { email: string; password: string }[] = [];
  while (credentials.length < options.participants) {
    const count = Math.min(500, options.participants - credentials.length);
    credentials.push(
      ...(await call<{ email: string; password: string }[]>(
        'POST',
        `/api/experiments/${experiment.id}/batch-credentials`,
        token,
        { count },
      )),
    );
  }
  return {
    app,
    database,
    clockControl,
    experimentId: experiment.id,
    credentials,
    async close() {
      await app.close();
      await database.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

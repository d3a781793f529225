import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { buildConfig, parseEnv } from '../src/config.js';
import { createDatabase, type Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { defaultDeps } from '../src/default-deps.js';
import { createUser } from '../src/modules/users/users.service.js';
import { buildParticipantRows, insertExperimentRow, insertParticipantRows } from '../test/factories.js';

// The admin area's heavy reads on a seeded study: participants-detailed and the CSV exports, timed over
// real HTTP with memory sampled while they run. Importing this file does nothing; `bench/run.ts` calls it.

export interface AdminRequestFigure {
  /** Median of the timed runs, after one warm-up. */
  medianMs: number;
  maxMs: number;
  bytes: number;
  /** Highest RSS and heap seen during the runs, above the level just before them. */
  peakRssDeltaMb: number;
  peakHeapDeltaMb: number;
}

export interface AdminBenchResult {
  dialect: 'sqlite' | 'postgres';
  participants: number;
  messages: number;
  seedMs: number;
  participantsDetailed: AdminRequestFigure;
  participantsCsv: AdminRequestFigure;
  messagesCsv: AdminRequestFigure;
  /** The data package (ZIP, one read transaction); budget: under 2 s and 100 MB of added memory. */
  dataPackage: AdminRequestFigure & { withinBudget: boolean };
}

/** The data package's budget (issue 13): 5,000 participants and 35,000 messages. */
export const PACKAGE_BUDGET = { ms: 2000, addedMb: 100 } as const;

const PARTICIPANTS = 5000;
const SEED_BATCH = 500;
const RUNS = 3;

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** A participant who did the whole study: surveys, four sections, a greeting and three exchanges. */
function participantSpec(i: number): Parameters<typeof buildParticipantRows>[1] {
  const condition = i % 2 === 0 ? 'mmr' : 'control';
  const chat: { role: 'user' | 'assistant'; content: string }[] = [
    { role: 'assistant', content: 'Hello! I can answer questions about the topic you just read about.' },
  ];
  for (let turn = 0; turn < 3; turn++) {
    chat.push({ role: 'user', content: `Question ${turn} from participant ${i}: is it safe, and why, "exactly"?` });
    chat.push({ role: 'assistant', content: `An answer of a few sentences for turn ${turn}. `.repeat(6) });
  }
  return {
    assignment: { assigned_condition: condition, stratum: '3-4', consent_given: true, prolific_pid: `PID${i}` },
    entry: 'questions',
    baseline: (i % 6) + 1,
    pre: { age: '25-34', sex: i % 3 === 0 ? 'male' : 'female', political_leaning: 'moderate' },
    post: (i % 7) + 1,
    views: [{ seconds: 16 }, { seconds: 22 }, { seconds: 41 }, { seconds: 27 }],
    chat,
  };
}

async function seed(database: Database, experimentId: string): Promise<number> {
  let messages = 0;
  for (let start = 0; start < PARTICIPANTS; start += SEED_BATCH) {
    const rows = Array.from({ length: Math.min(SEED_BATCH, PARTICIPANTS - start) }, (_, k) =>
      buildParticipantRows(experimentId, participantSpec(start + k)),
    );
    messages += rows.reduce((n, r) => n + r.messages.length, 0);
    await database.db.transaction().execute((trx) => insertParticipantRows(trx, rows));
  }
  return messages;
}

/** One GET over HTTP, reading and discarding the body as it arrives (as a browser download would). */
function download(port: number, url: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: url, headers: { authorization: `Bearer ${token}` } });
    request.on('response', (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        reject(new Error(`${url}: HTTP ${response.statusCode}`));
        return;
      }
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve(bytes));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

async function measure(port: number, url: string, token: string): Promise<AdminRequestFigure> {
  await download(port, url, token);
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 5);
  const times: number[] = [];
  let bytes = 0;
  try {
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      bytes = await download(port, url, token);
      times.push(performance.now() - started);
    }
  } finally {
    clearInterval(sampler);
  }
  times.sort((a, b) => a - b);
  return {
    medianMs: Math.round(times[Math.floor(times.length / 2)] ?? 0),
    maxMs: Math.round(times.at(-1) ?? 0),
    bytes,
    peakRssDeltaMb: mb(peakRss - before.rss),
    peakHeapDeltaMb: mb(peakHeap - before.heapUsed),
  };
}

function withBudget(figure: AdminRequestFigure): AdminRequestFigure & { withinBudget: boolean } {
  const withinBudget = figure.maxMs < PACKAGE_BUDGET.ms && figure.peakRssDeltaMb < PACKAGE_BUDGET.addedMb;
  return { ...figure, withinBudget };
}

async function openDatabase(
  dialect: 'sqlite' | 'postgres',
  dataDir: string,
  databaseUrl: string | undefined,
): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const database = createDatabase({ sqliteFile: path.join(dataDir, 'bench.sqlite') });
    return { database, drop: () => Promise.resolve() };
  }
  if (!databaseUrl) throw new Error('runAdminBench: a PostgreSQL URL is required for postgres');
  // A database of its own, not a schema: migrations look for their tables across every schema of a
  // database, so a bench schema would disturb test runs sharing the server.
  const name = `studychat_admin_bench_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const database = createDatabase({ databaseUrl: url.toString(), sqliteFile: '' });
  const drop = async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`drop database if exists ${name}`);
    await client.end();
  };
  return { database, drop };
}

/** Seeds 5,000 participants with chats, then times the participants table and two exports. */
export async function runAdminBench(dialect: 'sqlite' | 'postgres', databaseUrl?: string): Promise<AdminBenchResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'studychat-admin-bench-'));
  const { database, drop } = await openDatabase(dialect, dataDir, databaseUrl);
  const config = buildConfig(
    parseEnv({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      NODE_ENV: 'production',
    }),
  );
  const app = await buildApp({ ...config, webDistDir: undefined }, defaultDeps(database));
  try {
    await migrateToLatest(database.db);
    const password = 'bench-admin-password-123';
    await createUser(defaultDeps(database), { email: 'admin@admin-bench.test', password, isAdmin: true });
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'admin@admin-bench.test', password },
    });
    const token = (login.json() as { token: string }).token;

    const seedStarted = performance.now();
    const experimentId = (await insertExperimentRow(database.db, { name: 'Admin bench' })).id;
    const messages = await seed(database, experimentId);
    const seedMs = Math.round(performance.now() - seedStarted);

    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = address && typeof address === 'object' ? address.port : 0;
    const base = `/api/experiments/${experimentId}`;
    return {
      dialect,
      participants: PARTICIPANTS,
      messages,
      seedMs,
      participantsDetailed: await measure(port, `${base}/participants-detailed`, token),
      participantsCsv: await measure(port, `${base}/export/participants.csv`, token),
      messagesCsv: await measure(port, `${base}/export/messages.csv`, token),
      dataPackage: withBudget(await measure(port, `${base}/export-package`, token)),
    };
  } finally {
    await app.close();
    await database.close();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

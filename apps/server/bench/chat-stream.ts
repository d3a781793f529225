import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import pg from 'pg';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { buildApp } from '../src/app.js';
import { buildConfig, parseEnv } from '../src/config.js';
import { createDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { defaultDeps } from '../src/default-deps.js';
import { createChatModel } from '../src/llm/create-chat-model.js';
import { TokenSigner } from '../src/modules/auth/token.js';
import { insertSession } from '../src/modules/auth/session.repository.js';
import { insertThreadIfAbsent } from '../src/modules/chat/chat.repository.js';
import { ensureDefaultStudyVersion } from '../src/modules/studies/studies.service.js';
import { hashPassword } from '../src/modules/users/password.js';
import { startOpenAiFake } from '../test/fakes/openai-fake.js';

// 200 chats streaming at once through the real app (OpenAI adapter, SQLite in a temp dir) from a fake
// provider in its own process, read by clients in a third process, so the three event loops do not
// share a thread. Each token the fake writes is its own wall-clock write time; the client subtracts
// it from the time it read the token: the latency the server adds (plus two loopback hops).
// Importing this file does nothing; `runChatBench()` runs it. The same file is the two child scripts.

const here = fileURLToPath(import.meta.url);

export interface ChatBenchResult {
  dialect: 'sqlite' | 'postgres';
  chats: number;
  tokensPerChat: number;
  tokensPerSecondPerChat: number;
  /** Tokens received by the clients and measured. */
  tokensMeasured: number;
  /** Chats that did not end with `[DONE]` and the full reply. */
  failedChats: number;
  /** From the provider writing a token to the client reading it through the server, in ms. */
  addedLatencyMs: { p50: number; p99: number; max: number };
  /**
   * The same chats read straight from the provider, without the server, in the same run: what the
   * machine itself adds (loopback, scheduling), to set against `addedLatencyMs` on a busy machine.
   */
  baselineLatencyMs: { p50: number; p99: number; max: number };
  /** Replies stored in the database with status complete. */
  storedReplies: number;
  durationMs: number;
  /** CPU time the server process used while the chats streamed (user + system). */
  serverCpuMs: number;
  /** Statements the server sent to the database while the chats streamed: all, and the saves of the text so far. */
  statements: { total: number; partialSaves: number };
  memoryMb: {
    before: { rss: number; heapUsed: number };
    peak: { rss: number; heapUsed: number };
    after: { rss: number; heapUsed: number };
  };
  /** Where the server's delay comes from: its event loop, GC pauses, statements on the loop (SQLite). */
  server: ServerProbes;
  /** Added latency of the tokens written in the first 2 s (chats starting) and after. */
  phases: ClientReport['phases'];
  /** The measuring process's event loop delay, through the server and straight from the provider. */
  clientLoopDelayMs: ClientReport['clientLoopDelayMs'];
  directClientLoopDelayMs: ClientReport['clientLoopDelayMs'];
}

export interface ChatBenchOptions {
  /** A postgres:// URL runs the server on PostgreSQL (in a schema of its own, dropped after); SQLite otherwise. */
  databaseUrl?: string | undefined;
  chats?: number;
  tokensPerChat?: number;
  tokensPerSecond?: number;
}

interface ClientTarget {
  token: string;
  threadId: string;
}

/** `app`: the chats through the server; `direct`: the same number of streams straight from the provider. */
interface ClientsInput {
  mode: 'app' | 'direct';
  port: number;
  targets: ClientTarget[];
}

interface ClientReport {
  latencies: { p50: number; p99: number; max: number };
  /** Tokens written in the first 2 s of the run (the chats starting) and after. */
  phases: { start: Summary; streaming: Summary };
  /** The measuring process's own event loop delay, in ms: how much of the figure is the client's. */
  clientLoopDelayMs: { p99: number; max: number };
  measured: number;
  failed: number;
}

/** The statement that saves the text of streaming replies (chat/partial-saver.ts). */
const PARTIAL_SAVE = /^update "chat_messages" set "content" = case /;

/** Chats start spread over this long (see clientsRole). */
const START_SPREAD_MS = 1000;

const wallClockMs = (): number => performance.timeOrigin + performance.now();
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const memory = () => {
  const m = process.memoryUsage();
  return { rss: mb(m.rss), heapUsed: mb(m.heapUsed) };
};

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round((sorted[Math.max(0, index)] ?? 0) * 1000) / 1000;
}

interface Summary {
  p50: number;
  p99: number;
  max: number;
  n: number;
}

const summary = (values: number[]): Summary => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: percentile(sorted, 100), n: sorted.length };
};

export interface ServerProbes {
  /** The server's event loop delay while the chats streamed (monitorEventLoopDelay, 1 ms resolution), in ms. */
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  /** Garbage collection pauses in the server process. */
  gc: { count: number; totalMs: number; maxMs: number; over3Ms: string[] };
  /** SQLite only: statements run synchronously on the loop, in ms, and the slowest kinds. */
  sqliteStatements?: {
    count: number;
    totalMs: number;
    p99Ms: number;
    maxMs: number;
    slowest: { sql: string; ms: number }[];
    /** The partial saves' statements (chat/partial-saver.ts): how long each held the loop. */
    partialSaves: Summary;
    /** Every statement over 3 ms: its kind and time. */
    over3Ms: string[];
  };
}

/** Event loop delay, GC pauses and (SQLite) the time each statement holds the loop, while the chats stream. */
function startProbes(sqlite: unknown): { stop: () => ServerProbes } {
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const gc = { count: 0, totalMs: 0, maxMs: 0, over3Ms: [] as string[] };
  const kinds: Record<number, string> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weakcb' };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count += 1;
      gc.totalMs += entry.duration;
      gc.maxMs = Math.max(gc.maxMs, entry.duration);
      const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0;
      if (entry.duration > 3) gc.over3Ms.push(`${kinds[kind] ?? kind} ${entry.duration.toFixed(1)}`);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const timings: { sql: string; ms: number }[] = [];
  const restore: (() => void)[] = [];
  if (sqlite) {
    // better-sqlite3 runs on the loop: time every statement's run/all/iterate (bench only).
    const probe = new BetterSqlite3(':memory:');
    const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
    probe.close();
    for (const name of ['run', 'all', 'get']) {
      const original = proto[name] as (this: { source: string }, ...args: unknown[]) => unknown;
      proto[name] = function (this: { source: string }, ...args: unknown[]) {
        const t0 = performance.now();
        try {
          return original.apply(this, args);
        } finally {
          timings.push({ sql: this.source, ms: performance.now() - t0 });
        }
      };
      restore.push(() => (proto[name] = original));
    }
  }
  const ms = (ns: number) => Math.round(ns / 1e3) / 1e3;
  return {
    stop() {
      loop.disable();
      observer.disconnect();
      for (const undo of restore) undo();
      const result: ServerProbes = {
        eventLoopDelayMs: { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) },
        gc: { ...gc, totalMs: Math.round(gc.totalMs), maxMs: Math.round(gc.maxMs * 1000) / 1000 },
      };
      if (sqlite) {
        const s = summary(timings.map((t) => t.ms));
        const bySql = new Map<string, number>();
        for (const t of timings) bySql.set(t.sql, Math.max(bySql.get(t.sql) ?? 0, t.ms));
        result.sqliteStatements = {
          count: s.n,
          totalMs: Math.round(timings.reduce((a, t) => a + t.ms, 0)),
          p99Ms: s.p99,
          maxMs: s.max,
          slowest: [...bySql]
            .sort((a, b) => b[1] - a[1])
            .slice(0, 4)
            .map(([sql, max]) => ({ sql: sql.slice(0, 80), ms: Math.round(max * 1000) / 1000 })),
          partialSaves: summary(timings.filter((t) => PARTIAL_SAVE.test(t.sql)).map((t) => t.ms)),
          over3Ms: timings.filter((t) => t.ms > 3).map((t) => `${t.sql.slice(0, 30)} ${t.ms.toFixed(1)}`),
        };
      }
      return result;
    },
  };
}

/** Runs `chat-stream.ts <role>` in its own process; it prints one JSON line when ready, and a second when done. */
function spawnRole(role: string, input: unknown): { child: ChildProcess; lines: AsyncIterator<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', here, role], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (!child.stdout || !child.stdin) throw new Error('child process without pipes');
  child.stdin.end(JSON.stringify(input));
  return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator]() };
}

async function nextJson<T>(lines: AsyncIterator<string>, role: string): Promise<T> {
  const next = await lines.next();
  if (next.done) throw new Error(`bench ${role} process ended early`);
  return JSON.parse(next.value) as T;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Measures the chat's streaming path with 200 chats at once (DESIGN.md section 6 budget: p99 under 5 ms). */
export async function runChatBench(options: ChatBenchOptions = {}): Promise<ChatBenchResult> {
  const chats = options.chats ?? 200;
  const tokensPerChat = options.tokensPerChat ?? 200;
  const tokensPerSecond = options.tokensPerSecond ?? 40;

  const provider = spawnRole('provider', { tokensPerChat, tokenDelayMs: 1000 / tokensPerSecond });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'studychat-chat-bench-'));
  const children: ChildProcess[] = [provider.child];
  let dropSchema = (): Promise<void> => Promise.resolve();
  try {
    const { url } = await nextJson<{ url: string }>(provider.lines, 'provider');
    const config = buildConfig(
      parseEnv({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        NODE_ENV: 'production',
        LLM_PROVIDER: 'openai',
        OPENAI_BASE_URL: url,
        LLM_MODEL: 'gpt-4o-mini',
      }),
    );
    const pgSchema = options.databaseUrl ? `bench_${randomUUID().replaceAll('-', '')}` : undefined;
    if (options.databaseUrl && pgSchema) {
      await adminStatement(options.databaseUrl, `create schema ${pgSchema}`);
      dropSchema = () => adminStatement(options.databaseUrl ?? '', `drop schema if exists ${pgSchema} cascade`);
    }
    const database = createDatabase({ databaseUrl: options.databaseUrl, sqliteFile: config.sqliteFile, pgSchema });
    await migrateToLatest(database.db, pgSchema ? { schema: pgSchema } : undefined);
    const deps = defaultDeps(database, createChatModel(config.llm));
    const app = await buildApp({ ...config, webDistDir: undefined }, deps);
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const targets = await setUpParticipants(deps, config.jwtSecret, chats);
      const address = app.server.address();
      const port = address && typeof address === 'object' ? address.port : 0;

      const before = memory();
      const peak = { ...before };
      const sampler = setInterval(() => {
        const now = memory();
        peak.rss = Math.max(peak.rss, now.rss);
        peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
      }, 100);
      const statementsBefore = database.queries.count;
      let partialSaves = 0;
      database.queries.onQuery = (statement) => {
        // One statement saves the text of every streaming reply that grew (chat/partial-saver.ts).
        if (PARTIAL_SAVE.test(statement)) partialSaves += 1;
      };
      const probes = startProbes(database.dialect === 'sqlite' ? database : undefined);
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      const clients = spawnRole('clients', { mode: 'app', port, targets } satisfies ClientsInput);
      children.push(clients.child);
      const report = await nextJson<ClientReport>(clients.lines, 'clients');
      const durationMs = Math.round(performance.now() - started);
      const cpu = process.cpuUsage(cpuBefore);
      const server = probes.stop();
      const statements = { total: database.queries.count - statementsBefore, partialSaves };
      database.queries.onQuery = undefined;
      clearInterval(sampler);
      const after = memory();

      const providerPort = Number(new URL(url).port);
      const direct = spawnRole('clients', { mode: 'direct', port: providerPort, targets } satisfies ClientsInput);
      children.push(direct.child);
      const baseline = await nextJson<ClientReport>(direct.lines, 'clients');

      const stored = await database.db
        .selectFrom('chat_messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('role', '=', 'assistant')
        .where('status', '=', 'complete')
        .executeTakeFirst();
      return {
        dialect: database.dialect,
        chats,
        tokensPerChat,
        tokensPerSecondPerChat: tokensPerSecond,
        tokensMeasured: report.measured,
        failedChats: report.failed,
        addedLatencyMs: report.latencies,
        baselineLatencyMs: baseline.latencies,
        storedReplies: Number(stored?.n ?? 0),
        durationMs,
        serverCpuMs: Math.round((cpu.user + cpu.system) / 1000),
        statements,
        memoryMb: { before, peak, after },
        server,
        phases: report.phases,
        clientLoopDelayMs: report.clientLoopDelayMs,
        directClientLoopDelayMs: baseline.clientLoopDelayMs,
      };
    } finally {
      await app.close();
      await database.close();
    }
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
    await dropSchema();
  }
}

async function adminStatement(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Participants with conditions, sessions and chat threads, written straight to the database. */
async function setUpParticipants(
  deps: ReturnType<typeof defaultDeps>,
  jwtSecret: string,
  count: number,
): Promise<ClientTarget[]> {
  const { db } = deps.database;
  const now = new Date();
  const iso = now.toISOString();
  const experimentId = randomUUID();
  await db
    .insertInto('experiments')
    .values({
      id: experimentId,
      name: 'Chat bench',
      description: null,
      created_at: iso,
      updated_at: iso,
    })
    .execute();
  // Pinned to the built-in study as experiments created through the API are: with its participants below, its
  // study is then kept in the process (studies/study-source.ts), as in a running study, not read per request.
  await ensureDefaultStudyVersion(db, iso);
  // One hash for everyone: hashing 200 passwords would measure argon2, not the chat.
  const passwordHash = await hashPassword('bench-password-123');
  const signer = new TokenSigner(jwtSecret);
  const targets: ClientTarget[] = [];
  for (let i = 0; i < count; i += 1) {
    const userId = randomUUID();
    const email = `chat-bench-${i}@bench.test`;
    await db
      .insertInto('users')
      .values({
        id: userId,
        email,
        password_hash: passwordHash,
        is_admin: false,
        metadata: null,
        created_at: iso,
        updated_at: iso,
        last_login_at: null,
      })
      .execute();
    await db
      .insertInto('assignments')
      .values({
        id: randomUUID(),
        user_id: userId,
        experiment_id: experimentId,
        prolific_pid: null,
        study_id: null,
        session_id: null,
        assigned_condition: i % 2 === 0 ? 'mmr' : 'control',
        stratum: '3-4',
        condition_assigned_at: iso,
        consent_given: true,
        consent_timestamp: iso,
        intervention_completed_timestamp: null,
        completion_pathway: null,
        completion_code: null,
        completed_at: null,
        created_at: iso,
        updated_at: iso,
      })
      .execute();
    const sessionId = randomUUID();
    await insertSession(db, {
      id: sessionId,
      user_id: userId,
      created_at: iso,
      expires_at: new Date(now.getTime() + 3_600_000).toISOString(),
    });
    const token = await signer.sign({ userId, email, isAdmin: false }, sessionId, now, 3600);
    // The thread as the chat step starts it (the journey gate's steps before it are not what this measures).
    const threadId = randomUUID();
    await insertThreadIfAbsent(db, {
      id: threadId,
      userId,
      experimentId,
      condition: i % 2 === 0 ? 'mmr' : 'control',
      title: 'Chat bench',
      now: iso,
    });
    targets.push({ token, threadId });
  }
  return targets;
}

/** Child role: the fake OpenAI-compatible provider, writing timestamped tokens at the given rate. */
async function providerRole(): Promise<void> {
  const input = JSON.parse(await readStdin()) as { tokensPerChat: number; tokenDelayMs: number };
  const fake = await startOpenAiFake(() => ({
    kind: 'stream',
    text: Array.from({ length: input.tokensPerChat }, () => ''),
    tokenDelayMs: input.tokenDelayMs,
    timestampTokens: true,
  }));
  process.stdout.write(JSON.stringify({ url: fake.url }) + '\n');
  process.on('SIGTERM', () => void fake.close().then(() => process.exit(0)));
}

/** The token text in one `data:` payload: ours (`{text}`) or the provider's chat-completion chunk. */
function tokenText(payload: string): string | undefined {
  const value = JSON.parse(payload) as { text?: string; choices?: { delta?: { content?: string } }[] };
  return value.text ?? value.choices?.[0]?.delta?.content;
}

/** Streams one chat (or one direct provider stream) and records each token's delay; false if it failed. */
function streamOne(
  input: ClientsInput,
  target: ClientTarget,
  agent: Agent,
  latencies: number[],
  writtenAt: number[],
): Promise<boolean> {
  const direct = input.mode === 'direct';
  return new Promise<boolean>((resolve) => {
    let buffer = '';
    let done = false;
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: input.port,
        method: 'POST',
        path: direct ? '/v1/chat/completions' : `/api/chat/threads/${target.threadId}/messages`,
        headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
        agent,
      },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const readAt = wallClockMs();
          buffer += chunk;
          let end = buffer.indexOf('\n\n');
          while (end !== -1) {
            const payload = buffer.slice(buffer.startsWith('data: ') ? 6 : 0, end);
            buffer = buffer.slice(end + 2);
            if (payload === '[DONE]') done = true;
            else {
              const text = tokenText(payload);
              if (text) {
                const written = Number.parseFloat(text);
                latencies.push(readAt - written);
                writtenAt.push(written);
              }
            }
            end = buffer.indexOf('\n\n');
          }
        });
        res.on('end', () => resolve(done && res.statusCode === 200));
      },
    );
    req.on('error', () => resolve(false));
    req.end(
      JSON.stringify(direct ? { model: 'gpt-4o-mini', stream: true } : { message: 'Tell me about this, please.' }),
    );
  });
}

/**
 * Child role: runs every chat and measures each token's delay from the provider's write. Participants
 * do not all press Send in the same millisecond: the chats start spread over the first second, then
 * all stream at once, so the figure is streaming latency rather than the cost of 200 requests (and 200
 * stored replies) landing in one instant.
 */
async function clientsRole(): Promise<void> {
  const input = JSON.parse(await readStdin()) as ClientsInput;
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const latencies: number[] = [];
  const writtenAt: number[] = [];
  const startedAt = wallClockMs();
  const spreadMs = START_SPREAD_MS / Math.max(1, input.targets.length);
  const results = await Promise.all(
    input.targets.map(async (target, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * spreadMs));
      return streamOne(input, target, agent, latencies, writtenAt);
    }),
  );
  const start: number[] = [];
  const streaming: number[] = [];
  latencies.forEach((latency, i) => ((writtenAt[i] ?? 0) - startedAt < 2000 ? start : streaming).push(latency));
  latencies.sort((a, b) => a - b);
  const report: ClientReport = {
    latencies: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: percentile(latencies, 100) },
    phases: { start: summary(start), streaming: summary(streaming) },
    clientLoopDelayMs: { p99: Math.round(loop.percentile(99) / 1e3) / 1e3, max: Math.round(loop.max / 1e3) / 1e3 },
    measured: latencies.length,
    failed: results.filter((ok) => !ok).length,
  };
  process.stdout.write(JSON.stringify(report) + '\n');
  agent.destroy();
}

if (process.argv[1] === here) {
  const role = process.argv[2];
  if (role === 'provider') await providerRole();
  else if (role === 'clients') await clientsRole();
  else {
    // `chat-stream.ts postgres` runs it on TEST_DATABASE_URL or BENCH_DATABASE_URL.
    const databaseUrl =
      role === 'postgres' ? (process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL) : undefined;
    if (role === 'postgres' && !databaseUrl) throw new Error('set BENCH_DATABASE_URL or TEST_DATABASE_URL');
    const result = await runChatBench({ databaseUrl });
    console.log(JSON.stringify(result, null, 2));
    process.exit(0);
  }
}

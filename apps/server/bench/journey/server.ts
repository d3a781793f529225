import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { buildConfig, parseEnv } from '../../src/config.js';
import { createDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import { defaultDeps } from '../../src/lib/deps.js';
import { createOffsetClock } from '../../src/lib/test-clock.js';
import { createChatModel } from '../../src/llm/create-chat-model.js';
import { createUser } from '../../src/modules/users/users.service.js';
import { checkJourneyData } from './checks.js';

// The server side of `npm run bench:journey`: the real app (scripted model, as `LLM_PROVIDER=scripted`
// runs it) on a fresh SQLite file or PostgreSQL schema, with one experiment and N study logins. It prints
// one JSON line, then answers commands on stdin, one JSON line each: `stats` (statements sent and this
// process's CPU), `trace` (statements per request of each endpoint, and their texts), `check` (the
// randomisation and data checks), `stop`.
//
// The server clock is real time that also jumps SECTION_JUMP_MS every second, so a participant who
// reads a section for a little over a second has met every section's minimum (the longest is 40 s)
// without the bench waiting minutes; tokens (12 h) outlive any run.
const SECTION_JUMP_MS = 41_000;

const dialect = process.env.BENCH_DIALECT === 'postgres' ? 'postgres' : 'sqlite';
const participants = Number(process.env.BENCH_PARTICIPANTS ?? '10');
const dataDir = mkdtempSync(path.join(tmpdir(), 'studychat-journey-'));
const config = buildConfig(
  parseEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'production', LLM_PROVIDER: 'scripted' }),
);

async function openDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const database = createDatabase({ sqliteFile: config.sqliteFile });
    await migrateToLatest(database.db);
    return { database, drop: () => Promise.resolve() };
  }
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) throw new Error('BENCH_DATABASE_URL is not set');
  const schema = `bench_${randomUUID().replaceAll('-', '')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await admin(`create schema ${schema}`);
  const database = createDatabase({ databaseUrl: url, sqliteFile: '', pgSchema: schema });
  await migrateToLatest(database.db, { schema });
  return { database, drop: () => admin(`drop schema if exists ${schema} cascade`) };
}

const { database, drop } = await openDatabase();
const clockControl = createOffsetClock();
const tick = setInterval(() => clockControl.advance(SECTION_JUMP_MS), 1000);
const deps = { ...defaultDeps(database, createChatModel(config.llm)), clock: clockControl.clock };
const app = await buildApp({ ...config, webDistDir: undefined }, deps);

// Statements per endpoint (the `trace` command): each request runs in its own async context.
const requestEndpoint = new AsyncLocalStorage<string>();
const perEndpoint = new Map<string, { requests: number; queries: number; statements: Map<string, number> }>();
app.addHook('onRequest', (request, _reply, done) => {
  const endpoint = `${request.method} ${request.routeOptions.url ?? '?'}`;
  const entry = perEndpoint.get(endpoint) ?? { requests: 0, queries: 0, statements: new Map<string, number>() };
  entry.requests += 1;
  perEndpoint.set(endpoint, entry);
  requestEndpoint.run(endpoint, done);
});
database.queries.onQuery = (statement) => {
  const entry = perEndpoint.get(requestEndpoint.getStore() ?? '(outside a request)');
  if (!entry) return;
  entry.queries += 1;
  const text = statement.replace(/\s+/g, ' ').slice(0, 140);
  entry.statements.set(text, (entry.statements.get(text) ?? 0) + 1);
};
// Connections: the most open at once, and those the server's ceiling (MAX_CONNECTIONS, decision 0019)
// closed unanswered: the load client sees those as "fetch failed (other side closed)".
let openConnections = 0;
let peakConnections = 0;
let droppedConnections = 0;
app.server.on('connection', (socket) => {
  openConnections += 1;
  peakConnections = Math.max(peakConnections, openConnections);
  socket.once('close', () => (openConnections -= 1));
});
app.server.on('drop', () => (droppedConnections += 1));
await app.listen({ port: 0, host: '127.0.0.1' });

const adminEmail = 'admin@bench.test';
const adminPassword = 'bench-admin-password-123';
await createUser(deps, { email: adminEmail, password: adminPassword, isAdmin: true });
async function call<T>(method: 'POST' | 'PUT', url: string, token: string | null, payload: object): Promise<T> {
  const res = await app.inject({
    method,
    url,
    payload,
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
await call('PUT', `/api/experiments/${experiment.id}/completion-codes`, token, {
  codes: { complete: 'BENCH-COMPLETE', exitnoqualms: 'BENCH-NOQUALMS', exitceiling: 'BENCH-CEILING' },
});
const credentials: { email: string; password: string }[] = [];
while (credentials.length < participants) {
  const count = Math.min(500, participants - credentials.length);
  credentials.push(
    ...(await call<{ email: string; password: string }[]>(
      'POST',
      `/api/experiments/${experiment.id}/batch-credentials`,
      token,
      { count },
    )),
  );
}

const address = app.server.address();
const port = address && typeof address === 'object' ? address.port : 0;
const write = (value: unknown) => process.stdout.write(JSON.stringify(value) + '\n');
write({ port, experimentId: experiment.id, credentials });

for await (const line of createInterface({ input: process.stdin })) {
  const command = line.trim();
  if (command === 'stats') {
    const cpu = process.cpuUsage();
    write({
      queries: database.queries.count,
      cpuMs: (cpu.user + cpu.system) / 1000,
      peakConnections,
      droppedConnections,
      maxConnections: app.server.maxConnections,
    });
  } else if (command === 'trace') {
    write(
      [...perEndpoint].map(([endpoint, e]) => ({
        endpoint,
        requests: e.requests,
        queriesPerRequest: e.queries / Math.max(1, e.requests),
        statements: [...e.statements]
          .sort((a, b) => b[1] - a[1])
          .map(([text, n]) => `${(n / e.requests).toFixed(2)}  ${text}`),
      })),
    );
  } else if (command === 'check') {
    write(await checkJourneyData(database, experiment.id));
  } else if (command === 'stop') {
    break;
  }
}
clearInterval(tick);
await app.close();
await database.close();
await drop();
process.exit(0);

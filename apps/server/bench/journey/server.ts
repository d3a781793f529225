import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../src/db/database.js';
import { startBenchApp } from './bench-app.js';
import { checkJourneyData } from './checks.js';

// The server side of `npm run bench:journey`: the bench's app (bench-app.ts) listening on a port. It prints
// one JSON line, then answers commands on stdin, one JSON line each: `stats` (statements sent and this
// process's CPU), `trace` (statements per request of each endpoint, and their texts), `check` (the
// randomisation and data checks), `profile-start` and `profile-stop` (a V8 CPU profile of this process
// between the two, written to BENCH_PROFILE_FILE; answers with the file's path), `stop`.
//
// The server runs on the real clock: the bench's study version asks BENCH_SECTION_SECONDS of each section
// (bench-app.ts), which the load client waits, so nothing the clock drives (the last-seen touch at most every
// 30 s, the chat's partial saves once a second) runs more often than in a real run (docs/decisions/0064).

const perEndpoint = new Map<string, { requests: number; queries: number; statements: Map<string, number> }>();
// Statements per endpoint (the `trace` command), only with BENCH_TRACE=1: each request runs in its own
// async context, and on Node 20 an AsyncLocalStorage hooks every promise the server makes, which costs
// the server CPU the bench is there to measure. The statements are counted either way.
function traceStatements(app: FastifyInstance, database: Database): void {
  const requestEndpoint = new AsyncLocalStorage<string>();
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
    entry.statements.set(statement, (entry.statements.get(statement) ?? 0) + 1);
  };
}
const { app, database, experimentId, credentials, close } = await startBenchApp({
  dialect: process.env.BENCH_DIALECT === 'postgres' ? 'postgres' : 'sqlite',
  participants: Number(process.env.BENCH_PARTICIPANTS ?? '10'),
  databaseUrl: process.env.BENCH_DATABASE_URL,
  ...(process.env.BENCH_PG_POOL ? { pgPoolSize: Number(process.env.BENCH_PG_POOL) } : {}),
  ...(process.env.BENCH_TRACE === '1' ? { beforeStart: traceStatements } : {}),
});

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

const address = app.server.address();
const port = address && typeof address === 'object' ? address.port : 0;
const write = (value: unknown) => process.stdout.write(JSON.stringify(value) + '\n');
write({ port, experimentId, credentials });

// The event loop's delay (how long a ready callback waited for the loop: GC pauses, long synchronous work),
// reset by each `stats`, so the second `stats` reports the load's.
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
const profiler = new Session();
for await (const line of createInterface({ input: process.stdin })) {
  const command = line.trim();
  if (command === 'profile-start') {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
    write({ profiling: true });
  } else if (command === 'profile-stop') {
    const { profile } = await profiler.post('Profiler.stop');
    const file = process.env.BENCH_PROFILE_FILE ?? path.join(tmpdir(), `journey-${process.pid}.cpuprofile`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(profile));
    profiler.disconnect();
    write({ file });
  } else if (command === 'stats') {
    const cpu = process.cpuUsage();
    write({
      queries: database.queries.count,
      cpuMs: (cpu.user + cpu.system) / 1000,
      systemCpuMs: cpu.system / 1000,
      peakConnections,
      droppedConnections,
      maxConnections: app.server.maxConnections,
      loopDelayMs: {
        p50: loopDelay.percentile(50) / 1e6,
        p99: loopDelay.percentile(99) / 1e6,
        max: loopDelay.max / 1e6,
      },
    });
    loopDelay.reset();
  } else if (command === 'trace') {
    write(
      [...perEndpoint].map(([endpoint, e]) => {
        const statements = new Map<string, number>();
        for (const [text, n] of e.statements) {
          const short = text.replace(/\s+/g, ' ').slice(0, 140);
          statements.set(short, (statements.get(short) ?? 0) + n);
        }
        return {
          endpoint,
          requests: e.requests,
          queriesPerRequest: e.queries / Math.max(1, e.requests),
          statements: [...statements]
            .sort((a, b) => b[1] - a[1])
            .map(([text, n]) => `${(n / e.requests).toFixed(2)}  ${text}`),
        };
      }),
    );
  } else if (command === 'check') {
    write(await checkJourneyData(database, experimentId));
  } else if (command === 'stop') {
    break;
  }
}
await close();
process.exit(0);

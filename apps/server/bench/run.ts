import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { participantBundleSizes } from './bundle-size.js';
import { buildBenchServer } from './journey/build-server.js';
import { load, startServer, stopServer, type HttpFigure } from './http-bench.js';

// `npm run bench`: DESIGN.md section 6 budgets, measured against baselines taken in the same run.
// Prints figures; never fails a build on timing (no timing assertions in tests).
const here = path.dirname(fileURLToPath(import.meta.url));
const verdict = (ok: boolean) => (ok ? 'within budget' : 'OVER BUDGET');

/** Middle value (mean of the two middle ones for an even count). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return 0;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
const spread = (values: number[]) => `${Math.min(...values)}-${Math.max(...values)}`;

interface Target {
  name: string;
  url: string;
  headers?: Record<string, string>;
  /** Held to the budget (app routes); references are only printed. */
  budget: boolean;
}

// BENCH_ROUNDS rounds (default 5) of BENCH_SECONDS each (default 3): every target is measured once per
// round, in an order that rotates between rounds, so the baseline and the app share the machine's
// conditions; each app figure is compared with the baseline of its own round, and the median and the
// spread over the rounds are printed. This process is the load generator; the servers run in their own.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? '5');
const SECONDS = Number(process.env.BENCH_SECONDS ?? '3');

async function httpBench(): Promise<void> {
  const bare = await startServer<{ port: number }>('bare-server.ts');
  const bareFastify = await startServer<{ port: number }>('fastify-server.ts');
  const fastifySqlite = await startServer<{ port: number }>('fastify-sqlite-server.ts');
  // The app as production runs it: bundled with the production build's settings, run by plain node
  // (BENCH_TSX=1: the source through tsx, as before decision 0071).
  const appScript =
    process.env.BENCH_TSX === '1' ? 'app-server.ts' : await buildBenchServer('bench/app-server.ts', 'app-server');
  const app = await startServer<{
    port: number;
    admin: { token: string };
    participant: { id: string; token: string };
    experimentId: string;
  }>(appScript);
  try {
    const appUrl = `http://127.0.0.1:${app.info.port}`;
    const participant = { authorization: `Bearer ${app.info.participant.token}` };
    const baselineName = 'bare node:http (baseline)';
    const targets: Target[] = [
      { name: baselineName, url: `http://127.0.0.1:${bare.info.port}/`, budget: false },
      {
        name: 'bare Fastify (reference, no plugins)',
        url: `http://127.0.0.1:${bareFastify.info.port}/`,
        budget: false,
      },
      {
        name: 'Fastify + one SQLite row (reference, no auth)',
        url: `http://127.0.0.1:${fastifySqlite.info.port}/`,
        budget: false,
      },
      { name: 'GET /api/health', url: `${appUrl}/api/health`, budget: true },
      {
        name: 'GET /api/participants/status/:id (participant)',
        url: `${appUrl}/api/participants/status/${app.info.experimentId}`,
        headers: participant,
        budget: true,
      },
      {
        name: 'GET /api/participants/journey/:id (participant)',
        url: `${appUrl}/api/participants/journey/${app.info.experimentId}`,
        headers: participant,
        budget: true,
      },
      {
        name: 'GET /api/participants/:userId/:experimentId',
        url: `${appUrl}/api/participants/${app.info.participant.id}/${app.info.experimentId}`,
        headers: participant,
        budget: true,
      },
      {
        name: 'GET /api/admin/system (admin, authenticated)',
        url: `${appUrl}/api/admin/system`,
        headers: { authorization: `Bearer ${app.info.admin.token}` },
        budget: true,
      },
    ];
    const runs = new Map<string, HttpFigure[]>(targets.map((t) => [t.name, []]));
    const ratios = new Map<string, number[]>(targets.map((t) => [t.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      const order = targets.map((_, i) => targets[(i + round) % targets.length] as Target);
      const figures = new Map<string, HttpFigure>();
      for (const t of order) {
        const figure = await load(t.name, t.url, { seconds: SECONDS, ...(t.headers ? { headers: t.headers } : {}) });
        figures.set(t.name, figure);
        runs.get(t.name)?.push(figure);
      }
      const baseline = figures.get(baselineName)?.requestsPerSecond ?? 0;
      for (const t of targets) {
        const rps = figures.get(t.name)?.requestsPerSecond ?? 0;
        ratios.get(t.name)?.push(baseline === 0 ? 0 : Math.round((rps / baseline) * 100));
      }
      process.stdout.write(`  round ${round + 1}/${ROUNDS} done\n`);
    }
    console.log(
      `\nHTTP (200 connections; ${ROUNDS} rounds of ${SECONDS} s, interleaved; median and min-max over the rounds; ` +
        'baseline: bare node:http answering the same JSON, measured in the same round)',
    );
    console.log(
      'name'.padEnd(48),
      'req/s'.padStart(7),
      'spread'.padStart(13),
      'vs bare'.padStart(8),
      'spread'.padStart(10),
      'p99 ms'.padStart(7),
      ' errors  verdict',
    );
    for (const t of targets) {
      const figures = runs.get(t.name) ?? [];
      const rps = figures.map((f) => f.requestsPerSecond);
      const ratio = ratios.get(t.name) ?? [];
      const p99 = median(figures.map((f) => f.p99Ms));
      const errors = figures.reduce((sum, f) => sum + f.errors + f.non2xx, 0);
      const ok = median(ratio) >= 50 && p99 < 50 && errors === 0;
      console.log(
        t.name.padEnd(48),
        String(Math.round(median(rps))).padStart(7),
        spread(rps).padStart(13),
        `${Math.round(median(ratio))}%`.padStart(8),
        `${spread(ratio)}%`.padStart(10),
        String(p99).padStart(7),
        String(errors).padStart(7),
        ` ${t.budget ? verdict(ok) : '(reference)'}`,
      );
    }
    console.log('  budget: median >= 50% of bare req/s, median p99 < 50 ms, no errors');
  } finally {
    await stopServer(bare.child);
    await stopServer(bareFastify.child);
    await stopServer(fastifySqlite.child);
    await stopServer(app.child);
  }
}

function bundleBench(): void {
  const sizes = participantBundleSizes();
  console.log('\nParticipant pages: initial JavaScript, gzipped (budget 100 KB)');
  if (!sizes) {
    console.log('  web app not built: run `npm run build` first');
    return;
  }
  for (const s of sizes) {
    const kb = s.gzipBytes / 1024;
    console.log(`  ${s.page.padEnd(28)} ${kb.toFixed(1).padStart(6)} KB  ${verdict(kb <= 100)}`);
  }
}

/**
 * The whole participant journey (journey/run.ts, also `npm run bench:journey`): N participants over T seconds
 * on SQLite and, with TEST_DATABASE_URL or BENCH_DATABASE_URL, PostgreSQL; it prints server CPU per journey
 * and p99 per endpoint, each with its verdict against the budget. BENCH_JOURNEY_PARTICIPANTS (default 1000),
 * BENCH_JOURNEY_SECONDS (60) and BENCH_JOURNEY_DIALECT (sqlite,postgres) change the run.
 */
async function journeyBench(): Promise<void> {
  console.log('\nParticipant journey (npm run bench:journey; budget: CPU per journey, p99 per endpoint, no errors)');
  const args = [
    '--participants',
    process.env.BENCH_JOURNEY_PARTICIPANTS ?? '1000',
    '--seconds',
    process.env.BENCH_JOURNEY_SECONDS ?? '60',
    '--dialect',
    process.env.BENCH_JOURNEY_DIALECT ?? 'sqlite,postgres',
  ];
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'journey', 'run.ts'), ...args], {
    stdio: 'inherit',
  });
  await new Promise((resolve) => child.once('exit', resolve));
}

// BENCH_ONLY=bundle,http,chat,admin,monitor,journey runs a subset.
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
const wanted = (name: string) => !only || only.includes(name);

async function optionalBench(file: string, run: (mod: Record<string, unknown>) => Promise<void>): Promise<void> {
  if (!wanted(file.startsWith('chat') ? 'chat' : file.startsWith('monitor') ? 'monitor' : 'admin')) return;
  if (!existsSync(path.join(here, file))) {
    console.log(`\n(${file} not present: skipped)`);
    return;
  }
  await run((await import(`./${file.replace(/\.ts$/, '.js')}`)) as Record<string, unknown>);
}

if (wanted('bundle')) bundleBench();
if (wanted('http')) await httpBench();
await optionalBench('chat-stream.ts', async (mod) => {
  const runChatBench = mod.runChatBench as (options: { databaseUrl?: string | undefined }) => Promise<{
    addedLatencyMs: { p99: number };
    baselineLatencyMs: { p99: number };
    failedChats: number;
  }>;
  console.log('\nChat: 200 chats streaming at once from a fake provider (budget: added latency p99 < 5 ms per token)');
  const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.BENCH_DATABASE_URL;
  for (const [name, databaseUrl] of [
    ['SQLite', undefined],
    ['PostgreSQL', pgUrl],
  ] as const) {
    if (name === 'PostgreSQL' && !databaseUrl) {
      console.log('PostgreSQL: set TEST_DATABASE_URL to include it');
      continue;
    }
    const chat = await runChatBench({ databaseUrl });
    console.log(`${name}:`, JSON.stringify(chat, null, 2));
    const added = chat.addedLatencyMs.p99;
    console.log(
      `  ${name}: added latency per token p99: ${added} ms (the same chats read straight from the provider: ` +
        `${chat.baselineLatencyMs.p99} ms), ${chat.failedChats} failed: ${verdict(added < 5 && chat.failedChats === 0)}`,
    );
  }
});
await optionalBench('admin-queries.ts', async (mod) => {
  const runAdminBench = mod.runAdminBench as (dialect: 'sqlite' | 'postgres', url?: string) => Promise<unknown>;
  console.log(
    '\nAdmin: participants-detailed, the participants and messages exports and the data package (budget: < 2 s, < 100 MB added), 5,000 participants with 35,000 messages',
  );
  console.log('SQLite:', JSON.stringify(await runAdminBench('sqlite'), null, 2));
  const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.BENCH_DATABASE_URL;
  if (pgUrl) console.log('PostgreSQL:', JSON.stringify(await runAdminBench('postgres', pgUrl), null, 2));
  else console.log('PostgreSQL: set TEST_DATABASE_URL to include it');
});
await optionalBench('monitor-bench.ts', async (mod) => {
  const runMonitorBench = mod.runMonitorBench as () => Promise<{ verdicts: string[] }>;
  console.log('\nMonitor: the snapshot for 5,000 participants, and the live stream during a burst (SQLite file)');
  const result = await runMonitorBench();
  console.log(JSON.stringify(result, null, 2));
  for (const line of result.verdicts) console.log(`  ${line}`);
});
if (wanted('journey')) await journeyBench();
await optionalBench('chat-cost.ts', async (mod) => {
  const runCostBench = mod.runCostBench as () => Promise<{ ratio: number }>;
  const runQueueBench = mod.runQueueBench as (o: { databaseUrl?: string }) => Promise<{
    failedReplies: number;
  }>;
  console.log(
    '\nChat cost: a 10-turn chat on a 2,500-token prompt with prompt caching (budget: at most half uncached)',
  );
  const cost = await runCostBench();
  console.log(JSON.stringify(cost, null, 2));
  console.log(`  cost with caching / uncached price: ${cost.ratio}: ${verdict(cost.ratio <= 0.5)}`);
  console.log(
    '\nChat queue: 200 chats starting within a minute against a provider taking 10 at once, 4 s each (150 a minute): zero failed replies',
  );
  const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.BENCH_DATABASE_URL;
  for (const [name, databaseUrl] of [
    ['SQLite', undefined],
    ['PostgreSQL', pgUrl],
  ] as const) {
    if (name === 'PostgreSQL' && !databaseUrl) {
      console.log('PostgreSQL: set TEST_DATABASE_URL to include it');
      continue;
    }
    const queue = await runQueueBench(databaseUrl ? { databaseUrl } : {});
    console.log(`${name}:`, JSON.stringify(queue, null, 2));
    console.log(`  ${name}: ${queue.failedReplies} failed replies: ${verdict(queue.failedReplies === 0)}`);
  }
});

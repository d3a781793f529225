import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { participantBundleSizes } from './bundle-size.js';
import { load, startServer, stopServer, type HttpFigure } from './http-bench.js';

// `npm run bench`: DESIGN.md section 6 budgets, measured against baselines taken in the same run.
// Prints figures; never fails a build on timing (no timing assertions in tests).
const here = path.dirname(fileURLToPath(import.meta.url));
const pct = (a: number, b: number) => (b === 0 ? 'n/a' : `${((a / b) * 100).toFixed(0)}%`);
const verdict = (ok: boolean) => (ok ? 'within budget' : 'OVER BUDGET');

function printHttp(figures: HttpFigure[], baseline: HttpFigure): void {
  console.log('\nHTTP (200 connections, 5 s each; baseline: bare node:http answering the same JSON)');
  console.log(
    'name'.padEnd(44),
    'req/s'.padStart(8),
    'p50 ms'.padStart(8),
    'p99 ms'.padStart(8),
    'vs bare'.padStart(8),
    ' errors',
  );
  for (const f of figures) {
    console.log(
      f.name.padEnd(44),
      String(f.requestsPerSecond).padStart(8),
      String(f.p50Ms).padStart(8),
      String(f.p99Ms).padStart(8),
      pct(f.requestsPerSecond, baseline.requestsPerSecond).padStart(8),
      ` ${f.errors + f.non2xx}`,
    );
  }
  for (const f of figures.filter((x) => x !== baseline && !x.name.startsWith('bare'))) {
    const ok = f.requestsPerSecond >= baseline.requestsPerSecond / 2 && f.p99Ms < 50 && f.errors + f.non2xx === 0;
    console.log(`  ${f.name}: ${verdict(ok)} (needs >= 50% of bare req/s, p99 < 50 ms, no errors)`);
  }
}

async function httpBench(): Promise<void> {
  const bare = await startServer<{ port: number }>('bare-server.ts');
  const bareFastify = await startServer<{ port: number }>('fastify-server.ts');
  const app = await startServer<{
    port: number;
    admin: { token: string };
    participant: { id: string; token: string };
    experimentId: string;
  }>('app-server.ts');
  try {
    const appUrl = `http://127.0.0.1:${app.info.port}`;
    const baseline = await load('bare node:http (baseline)', `http://127.0.0.1:${bare.info.port}/`);
    const figures = [
      baseline,
      await load('bare Fastify (reference, no plugins)', `http://127.0.0.1:${bareFastify.info.port}/`),
      await load('GET /api/health', `${appUrl}/api/health`),
      await load(
        'GET /api/participants/status/:id (participant)',
        `${appUrl}/api/participants/status/${app.info.experimentId}`,
        { headers: { authorization: `Bearer ${app.info.participant.token}` } },
      ),
      await load(
        'GET /api/participants/journey/:id (participant)',
        `${appUrl}/api/participants/journey/${app.info.experimentId}`,
        { headers: { authorization: `Bearer ${app.info.participant.token}` } },
      ),
      await load(
        'GET /api/participants/:userId/:experimentId',
        `${appUrl}/api/participants/${app.info.participant.id}/${app.info.experimentId}`,
        { headers: { authorization: `Bearer ${app.info.participant.token}` } },
      ),
      await load('GET /api/admin/system (admin, authenticated)', `${appUrl}/api/admin/system`, {
        headers: { authorization: `Bearer ${app.info.admin.token}` },
      }),
    ];
    printHttp(figures, baseline);
  } finally {
    await stopServer(bare.child);
    await stopServer(bareFastify.child);
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

// BENCH_ONLY=bundle,http,chat,admin,monitor runs a subset.
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
  const runChatBench = mod.runChatBench as () => Promise<unknown>;
  console.log('\nChat: 200 chats streaming at once from a fake provider (budget: added latency p99 < 5 ms per token)');
  console.log(JSON.stringify(await runChatBench(), null, 2));
});
await optionalBench('admin-queries.ts', async (mod) => {
  const runAdminBench = mod.runAdminBench as (dialect: 'sqlite' | 'postgres', url?: string) => Promise<unknown>;
  console.log('\nAdmin: participants-detailed and participants export, 5,000 participants with chats');
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

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { buildConfig, parseEnv } from '../src/config.js';
import { createDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { defaultDeps } from '../src/default-deps.js';
import { createUser } from '../src/modules/users/users.service.js';
import { buildParticipantRows, insertExperimentRow, insertParticipantRows } from '../test/factories.js';

// The study monitor (issue 10): the snapshot for 5,000 participants, and the CPU the live stream costs this
// process while 10 admins watch and another process writes a 1,000-participant burst to the event log.
// Importing this file does nothing; `bench/run.ts` calls it.

const here = path.dirname(fileURLToPath(import.meta.url));
const PARTICIPANTS = 5000;
const BURST = 1000;
const BURST_SECONDS = 10;
const ADMINS = 10;

function spec(i: number): Parameters<typeof buildParticipantRows>[1] {
  const condition = i % 2 === 0 ? 'mmr' : 'control';
  const stage = i % 5; // a study in full swing: some at each stage
  return {
    assignment: {
      assigned_condition: stage >= 2 ? condition : null,
      stratum: stage >= 2 ? '3-4' : null,
      consent_given: true,
      prolific_pid: `PID${i}`,
      ...(stage === 4 ? { completion_pathway: 'complete', completed_at: new Date().toISOString() } : {}),
    },
    entry: 'questions',
    baseline: stage >= 1 ? (i % 6) + 1 : undefined,
    pre: stage >= 1 ? { age: '25-34', sex: 'female', political_leaning: 'moderate' } : undefined,
    views: stage >= 3 ? [{ seconds: 16 }, { seconds: 22 }, { seconds: 41 }, { seconds: 27 }] : [],
    post: stage === 4 ? 6 : undefined,
    chat:
      stage >= 3
        ? [
            { role: 'assistant', content: 'Hello!' },
            { role: 'user', content: 'A question' },
            {
              role: 'assistant',
              content: 'An answer',
              overrides: { input_tokens: 500, output_tokens: 120, cost_usd: 0.004 },
            },
          ]
        : undefined,
  };
}

function get(port: number, url: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: url, headers: { authorization: `Bearer ${token}` } });
    request.on('response', (response) => {
      let bytes = 0;
      response.on('data', (c: Buffer) => (bytes += c.length));
      response.on('end', () =>
        response.statusCode === 200 ? resolve(bytes) : reject(new Error(`${url}: ${response.statusCode}`)),
      );
    });
    request.on('error', reject);
  });
}

/**
 * Opens a stream and counts its data events until closed; with `reload`, fetches the snapshot after an
 * event at most every 2 s, as the monitor page does.
 */
function watch(port: number, url: string, token: string, reload?: string) {
  let events = 0;
  let reloads = 0;
  let last = 0;
  let busy = false;
  const request = http.get({ host: '127.0.0.1', port, path: url, headers: { authorization: `Bearer ${token}` } });
  request.on('response', (response) =>
    response.on('data', (c: Buffer) => {
      const n = c.toString().split('data: {').length - 1;
      events += n;
      if (!reload || n === 0 || busy || Date.now() - last < 2000) return;
      busy = true;
      last = Date.now();
      reloads += 1;
      void get(port, reload, token)
        .catch(() => undefined)
        .finally(() => (busy = false));
    }),
  );
  request.on('error', () => undefined);
  return { close: () => request.destroy(), events: () => events, reloads: () => reloads };
}

/** Runs a burst of BURST participants in another process while `watchers` watch; CPU of this process. */
async function burstWhileWatching(
  sqliteFile: string,
  usersFile: string,
  experimentId: string,
  watchers: ReturnType<typeof watch>[],
): Promise<{ events: number; ms: number; cpuPercent: number }> {
  await new Promise((resolve) => setTimeout(resolve, 500));
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const burst = await new Promise<{ events: number; ms: number }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'monitor-burst.ts')], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        BURST_SQLITE: sqliteFile,
        BURST_EXPERIMENT: experimentId,
        BURST_USERS: usersFile,
        BURST_SECONDS: String(BURST_SECONDS),
      },
    });
    let out = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as { events: number; ms: number })
        : reject(new Error(`burst exited ${code}`)),
    );
  });
  // One more poll interval so the last events are delivered inside the window.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const cpu = process.cpuUsage(cpuBefore);
  const wallMs = performance.now() - wallBefore;
  for (const w of watchers) w.close();
  return { ...burst, cpuPercent: Math.round(((cpu.user + cpu.system) / 1000 / wallMs) * 1000) / 10 };
}

export interface MonitorBenchResult {
  participants: number;
  monitorMedianMs: number;
  monitorMaxMs: number;
  monitorBytes: number;
  burstEvents: number;
  burstMs: number;
  streamCpuPercentOfOneCore: number;
  streamTicksPerAdmin: number;
  withSnapshotReloadsCpuPercent: number;
  snapshotReloadsPerAdmin: number;
  verdicts: string[];
}

export async function runMonitorBench(): Promise<MonitorBenchResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'studychat-monitor-bench-'));
  const sqliteFile = path.join(dataDir, 'bench.sqlite');
  const database = createDatabase({ sqliteFile });
  const config = buildConfig(parseEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'production' }));
  // The shared snapshot is off: every read below is computed, so the figures are the uncached cost.
  const app = await buildApp(
    { ...config, webDistDir: undefined, monitorStream: { snapshotMs: 0 } },
    defaultDeps(database),
  );
  try {
    await migrateToLatest(database.db);
    const password = 'bench-admin-password-123';
    await createUser(defaultDeps(database), { email: 'admin@monitor-bench.test', password, isAdmin: true });
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'admin@monitor-bench.test', password },
    });
    const token = (login.json() as { token: string }).token;
    const experimentId = String((await insertExperimentRow(database.db, { name: 'Monitor bench' })).id);
    for (let start = 0; start < PARTICIPANTS; start += 500) {
      const rows = Array.from({ length: 500 }, (_, k) => buildParticipantRows(experimentId, spec(start + k)));
      await database.db.transaction().execute((trx) => insertParticipantRows(trx, rows));
    }
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = address && typeof address === 'object' ? address.port : 0;
    const url = `/api/experiments/${experimentId}/monitor`;

    await get(port, url, token);
    const times: number[] = [];
    let bytes = 0;
    for (let run = 0; run < 5; run++) {
      const started = performance.now();
      bytes = await get(port, url, token);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);

    // Two bursts of 1,000 participants (seeded before, not measured), each written by another process:
    // 10 admins watching the stream only, then 10 admins whose pages also reload the snapshot.
    const bursts = [];
    for (const withReloads of [false, true]) {
      const burstExperiment = String((await insertExperimentRow(database.db, { name: 'Burst' })).id);
      const burstRows = Array.from({ length: BURST }, () => buildParticipantRows(burstExperiment, {}));
      await database.db.transaction().execute((trx) => insertParticipantRows(trx, burstRows));
      const usersFile = path.join(dataDir, `burst-users-${String(withReloads)}.json`);
      writeFileSync(usersFile, JSON.stringify(burstRows.map((r) => String(r.user.id))));
      const base = `/api/experiments/${burstExperiment}/monitor`;
      const watchers = Array.from({ length: ADMINS }, () =>
        watch(port, `${base}/stream`, token, withReloads ? base : undefined),
      );
      const result = await burstWhileWatching(sqliteFile, usersFile, burstExperiment, watchers);
      bursts.push({
        ...result,
        ticksPerAdmin: Math.round(watchers.reduce((n, w) => n + w.events(), 0) / ADMINS),
        reloadsPerAdmin: Math.round(watchers.reduce((n, w) => n + w.reloads(), 0) / ADMINS),
      });
    }
    const [streamOnly, withPages] = bursts as [(typeof bursts)[number], (typeof bursts)[number]];
    const burst = streamOnly;
    const cpuPercent = streamOnly.cpuPercent;
    const ticks = streamOnly.ticksPerAdmin;
    const median = Math.round(times[Math.floor(times.length / 2)] ?? 0);
    const verdict = (ok: boolean) => (ok ? 'within budget' : 'OVER BUDGET');
    return {
      participants: PARTICIPANTS,
      monitorMedianMs: median,
      monitorMaxMs: Math.round(times.at(-1) ?? 0),
      monitorBytes: bytes,
      burstEvents: burst.events,
      burstMs: burst.ms,
      streamCpuPercentOfOneCore: cpuPercent,
      streamTicksPerAdmin: ticks,
      withSnapshotReloadsCpuPercent: withPages.cpuPercent,
      snapshotReloadsPerAdmin: withPages.reloadsPerAdmin,
      verdicts: [
        `monitor for ${PARTICIPANTS} participants: median ${median} ms: ${verdict(median < 1000)} (budget < 1 s)`,
        `stream, ${ADMINS} admins watching a ${BURST}-participant burst (${burst.events} events in ${burst.ms} ms, written by another process): ${cpuPercent}% of one core: ${verdict(cpuPercent < 5)} (budget < 5%)`,
        `the same with each admin's page reloading the snapshot (at most every 2 s each; the shared snapshot off, so each reload is computed): ${withPages.cpuPercent}% of one core (no budget; for information)`,
      ],
    };
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

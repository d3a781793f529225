import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The production start of docs/operating.md, run as a deployment runs it: `npm start` (the same apps/server/dist/main.js
// the Docker image starts) on a fresh data folder and a fresh PostgreSQL database with two workers, driven
// over HTTP like a participant and an admin would. Without TEST_DATABASE_URL it runs on SQLite, one process.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PORT = Number(process.env.SMOKE_PORT ?? 4240);
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN = { email: 'admin@smoke.test', password: `smoke-${randomUUID()}` };
const serverUrl = process.env.TEST_DATABASE_URL;
const WORKERS = serverUrl ? 2 : 1;
const dbName = `studychat_smoke_${randomUUID().replaceAll('-', '').slice(0, 12)}`;

let server: ChildProcess | undefined;
let output = '';
let exited: Promise<number | null> = Promise.resolve(null);

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function databaseUrl(): string {
  const url = new URL(serverUrl ?? '');
  url.pathname = `/${dbName}`;
  return url.toString();
}

/** Resolves once the output contains `text`; rejects if the server exits first or time runs out. */
function waitForOutput(text: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${text}" within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const check = () => {
      if (output.includes(text)) {
        clearTimeout(timer);
        resolve();
      }
    };
    server?.stdout?.on('data', check);
    server?.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before "${text}":\n${output}`));
    });
    check();
  });
}

type Json = Record<string, unknown>;

async function call(
  method: string,
  url: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; json: Json; text: string; headers: Headers }> {
  const res = await fetch(`${BASE}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let json: Json = {};
  try {
    json = JSON.parse(text) as Json;
  } catch {
    // event streams and pages are not JSON
  }
  return { status: res.status, json, text, headers: res.headers };
}

async function ok(method: string, url: string, token?: string, body?: unknown) {
  const res = await call(method, url, token, body);
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
  return res;
}

async function login(email: string, password: string): Promise<{ token: string; userId: string }> {
  const { json } = await ok('POST', '/api/auth/login', undefined, { email, password });
  return { token: String(json.token), userId: String((json.user as Json).id) };
}

interface Proc {
  pid: number;
  ppid: number;
  args: string;
}

/** Processes running the server bundle below the `npm start` process. */
async function serverProcesses(rootPid: number): Promise<Proc[]> {
  const { stdout } = await promisify(execFile)('ps', ['-e', '-o', 'pid=,ppid=,args=']);
  const rows = stdout
    .trim()
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] ?? '' }));
  const below = new Set([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const row of rows) {
      if (below.has(row.ppid) && !below.has(row.pid)) {
        below.add(row.pid);
        grew = true;
      }
    }
  }
  return rows.filter((r) => below.has(r.pid) && r.args.includes('apps/server/dist/main.js'));
}

beforeAll(async () => {
  if (serverUrl) await adminQuery(`create database ${dbName}`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ENV_FILE: '/dev/null',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'studychat-smoke-')),
    DATABASE_URL: serverUrl ? databaseUrl() : '',
    WORKERS: String(WORKERS),
    JWT_SECRET: randomBytes(48).toString('base64url'),
    PASSWORD_PEPPER: randomBytes(48).toString('base64url'),
    PORT: String(PORT),
    HOST: '127.0.0.1',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LLM_PROVIDER: 'scripted',
    LOG_LEVEL: 'warn',
  };
  // Its own process group, so the test can stop the whole tree the way a terminal or service manager does.
  server = spawn('npm', ['start'], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  exited = new Promise((resolve) => server?.on('exit', (code) => resolve(code)));
  server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const database = serverUrl ? `PostgreSQL, ${WORKERS} workers` : 'SQLite at';
  await waitForOutput(`StudyChat listening on ${BASE} (${database}`, 100_000);
}, 120_000);

afterAll(async () => {
  if (server?.pid && server.exitCode === null) process.kill(-server.pid, 'SIGKILL');
  if (serverUrl) await adminQuery(`drop database if exists ${dbName} with (force)`);
});

describe('a configuration that cannot work', () => {
  it('stops at once with a clear message: several workers on SQLite, or without shared secrets', async () => {
    const start = (env: NodeJS.ProcessEnv) =>
      promisify(execFile)(process.execPath, ['apps/server/dist/main.js'], {
        cwd: root,
        env: { ...process.env, ENV_FILE: '/dev/null', DATABASE_URL: '', JWT_SECRET: '', PASSWORD_PEPPER: '', ...env },
      });
    await expect(
      start({ WORKERS: '2', JWT_SECRET: 'x'.repeat(40), PASSWORD_PEPPER: 'y'.repeat(40) }),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('WORKERS: 2 needs PostgreSQL (DATABASE_URL)'),
    });
    await expect(start({ WORKERS: '2', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        /JWT_SECRET: required \(or JWT_SECRET_FILE\) when WORKERS is 2[^]*PASSWORD_PEPPER: required \(or PASSWORD_PEPPER_FILE\)/,
      ),
    });
  });
});

describe(`npm start on ${serverUrl ? 'PostgreSQL with two workers' : 'SQLite with one process'}`, () => {
  it('runs the production bundle in the configured number of processes and reports ready', async () => {
    const processes = await serverProcesses(server?.pid ?? 0);
    expect(processes).toHaveLength(WORKERS === 1 ? 1 : WORKERS + 1);
    const ready = await call('GET', '/api/ready');
    expect(ready.status).toBe(200);
    expect(ready.json).toEqual({ status: 'ready', checks: { database: true, migrations: true, model: true } });
    const page = await call('GET', '/prolific?PROLIFIC_PID=X&EXPERIMENT_ID=Y');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<div id="root">');
  });

  it('lets the admin log in once and use the token on every worker, and takes a participant through the study', async () => {
    const admin = await login(ADMIN.email, ADMIN.password);
    // Round-robin spreads these over the workers: each must accept the token the other signed.
    for (let i = 0; i < 12; i++) expect((await call('GET', '/api/experiments', admin.token)).status).toBe(200);

    const experiment = (await ok('POST', '/api/experiments', admin.token, { name: 'Smoke study' })).json;
    const experimentId = String(experiment.id);
    const codes = { complete: 'SMOKE-C', exitnoqualms: 'SMOKE-NQ', exitceiling: 'SMOKE-CE' };
    await ok('PUT', `/api/experiments/${experimentId}/completion-codes`, admin.token, { codes });
    const creds = (await ok('POST', `/api/experiments/${experimentId}/batch-credentials`, admin.token, { count: 2 }))
      .json as unknown as { email: string; password: string }[];
    const [first, second] = creds;
    if (!first || !second) throw new Error('expected two logins');

    // The spec's calls in order: no concerns about MMR, so the confirm pathway and its code.
    const p = await login(first.email, first.password);
    const pid = 'SMOKEPID0001';
    await ok('POST', '/api/participants', p.token, {
      user_id: p.userId,
      experiment_id: experimentId,
      prolific_pid: pid,
    });
    await ok('PUT', '/api/participants/prolific-id', p.token, { experimentId, prolificId: pid });
    await ok('POST', '/api/participants/consent', p.token, { experimentId });
    const survey = (token: string, userId: string, prolific: string, survey_type: string, responses: Json) =>
      ok('POST', '/api/surveys', token, {
        user_id: userId,
        experiment_id: experimentId,
        prolific_pid: prolific,
        survey_type,
        responses,
      });
    await survey(p.token, p.userId, pid, 'entry', { choice: 'confirm' });
    const code = await ok('GET', `/api/experiments/${experimentId}/completion-code?pathway=confirm`, p.token);
    expect(code.json.code).toBe('SMOKE-NQ');
    await ok('POST', '/api/participants/completion', p.token, {
      experimentId,
      pathway: 'confirm',
      completionCode: 'SMOKE-NQ',
    });
    const status = await ok('GET', `/api/participants/status/${experimentId}`, p.token);
    expect(status.json).toMatchObject({ alreadyCompleted: true, completionPathway: 'confirm' });

    // A second participant reaches the chat: its reply streams through the worker that serves it.
    const q = await login(second.email, second.password);
    const qid = 'SMOKEPID0002';
    await ok('POST', '/api/participants', q.token, {
      user_id: q.userId,
      experiment_id: experimentId,
      prolific_pid: qid,
    });
    await ok('POST', '/api/participants/consent', q.token, { experimentId });
    await survey(q.token, q.userId, qid, 'entry', { choice: 'questions' });
    await survey(q.token, q.userId, qid, 'baseline', { vaccination_intention: '4' });
    await survey(q.token, q.userId, qid, 'pre', { age: '35-44', sex: 'female', political_leaning: 'moderate' });
    const assigned = await ok('POST', '/api/participants/assign-condition', q.token, { experimentId });
    expect(['mmr', 'control']).toContain(assigned.json.assigned_condition);
    // The sections are timed on the server's real clock (docs/decisions/0010): the first one opens, finishing
    // it at once is refused with the time left, and the chat does not open before the sections are read.
    const opened = await ok('POST', '/api/participants/sections/open', q.token, { experimentId, sectionIndex: 0 });
    expect(opened.json).toMatchObject({ section: { index: 0, finishedAt: null } });
    const early = await call('POST', '/api/participants/sections/finish', q.token, {
      experimentId,
      sectionIndex: 0,
      visibleSeconds: 15,
      hiddenSeconds: 0,
    });
    expect(early.status).toBe(409);
    expect(early.json).toMatchObject({ code: 'SECTION_TOO_EARLY' });
    const chat = await call('POST', '/api/chat/initiate', q.token, { experimentId });
    expect(chat.json).toMatchObject({ code: 'STEP_OUT_OF_ORDER', step: 'sections' });
    const journey = await ok('GET', `/api/participants/journey/${experimentId}`, q.token);
    expect(journey.json).toMatchObject({ step: 'sections', currentSection: 0 });

    // The admin sees both, and both logins as used.
    const rows = await ok('GET', `/api/experiments/${experimentId}/participants-detailed`, admin.token);
    expect(rows.json).toHaveLength(2);
    const logins = await ok('GET', `/api/experiments/${experimentId}/logins`, admin.token);
    expect(logins.json).toMatchObject({ total: 2, used: 2, unused: 0 });
  });

  // With one process there is no primary to replace it (a service manager or Docker restarts the process).
  if (WORKERS > 1)
    it('replaces a worker that dies, and keeps serving', async () => {
      const processes = await serverProcesses(server?.pid ?? 0);
      const primary = processes.find((p) => !processes.some((q) => q.pid === p.ppid));
      const worker = processes.find((p) => p.ppid === primary?.pid);
      if (!worker) throw new Error(`no worker among ${JSON.stringify(processes)}`);
      process.kill(worker.pid, 'SIGKILL');
      await waitForOutput('A worker exited unexpectedly (signal SIGKILL); starting a replacement.', 10_000);
      await expect.poll(async () => (await serverProcesses(server?.pid ?? 0)).length, { timeout: 15_000 }).toBe(3);
      for (let i = 0; i < 6; i++) expect((await call('GET', '/api/ready')).status).toBe(200);
    });

  // docs/decisions/0072: the database goes away and comes back; every process stays up throughout.
  if (WORKERS > 1)
    it('survives its database: connections cut, then refused for a while; 503 meanwhile, serving again within seconds', async () => {
      const admin = await login(ADMIN.email, ADMIN.password);
      const experimentId = String((await ok('POST', '/api/experiments', admin.token, { name: 'Outage' })).json.id);
      const [cred] = (await ok('POST', `/api/experiments/${experimentId}/batch-credentials`, admin.token, { count: 1 }))
        .json as unknown as { email: string; password: string }[];
      if (!cred) throw new Error('expected a login');
      const p = await login(cred.email, cred.password);
      const attempt = () => call('POST', '/api/auth/login', undefined, { email: cred.email, password: cred.password });
      await ok('POST', '/api/participants', p.token, {
        user_id: p.userId,
        experiment_id: experimentId,
        prolific_pid: 'SMOKEOUTAGE1',
      });
      // A participant's write that may be repeated (a repeat keeps the first consent and answers 200).
      const consent = () => call('POST', '/api/participants/consent', p.token, { experimentId });
      const pids = async () => (await serverProcesses(server?.pid ?? 0)).map((proc) => proc.pid).sort();
      const before = await pids();
      const logFrom = output.length;
      const terminate = () =>
        adminQuery(
          `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${dbName}' and pid <> pg_backend_pid()`,
        );
      const unavailable = (res: Awaited<ReturnType<typeof call>>) =>
        expect({ status: res.status, retryAfter: res.headers.get('retry-after'), code: res.json.code }).toEqual({
          status: 503,
          retryAfter: '5',
          code: 'DATABASE_UNAVAILABLE',
        });
      // A bounded poll on the real database (no fixed sleep): a login and a participant's write succeed on both
      // workers; before that, every reply is a 503 with its body, never a 500.
      const servesAgain = async () => {
        let served = 0;
        for (let i = 0; i < 200 && served < 4; i++) {
          const [loggedIn, consented] = [await attempt(), await consent()];
          if (loggedIn.status === 200 && consented.status === 200) served += 1;
          else {
            served = 0;
            for (const res of [loggedIn, consented]) if (res.status >= 300) unavailable(res);
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        }
        expect(served).toBe(4);
      };

      // Every connection of both workers terminated (a restart, a failover, a pooler's idle time-out).
      await terminate();
      await servesAgain();

      // Refused for a while: each worker answers 503 with Retry-After, is not ready, and stays alive.
      await adminQuery(`alter database ${dbName} allow_connections false`);
      await terminate();
      for (let i = 0; i < 4; i++) {
        unavailable(await attempt());
        unavailable(await consent());
        expect((await call('GET', '/api/ready')).status).toBe(503);
        expect((await call('GET', '/api/health')).json).toMatchObject({ status: 'degraded' });
      }
      await adminQuery(`alter database ${dbName} allow_connections true`);
      await servesAgain();
      for (let i = 0; i < 4; i++) expect((await call('GET', '/api/ready')).status).toBe(200);

      expect(await pids()).toEqual(before);
      expect(output.slice(logFrom)).not.toContain('A worker exited');
    });

  it('stops every process gracefully on SIGTERM', async () => {
    const pid = server?.pid ?? 0;
    process.kill(-pid, 'SIGTERM');
    expect(await exited).toBe(0);
    expect(await serverProcesses(pid)).toEqual([]);
    if (WORKERS > 1) expect(output).toContain(`Stopping ${WORKERS} workers (SIGTERM)`);
    await expect(fetch(`${BASE}/api/health`)).rejects.toThrow();
  });
});

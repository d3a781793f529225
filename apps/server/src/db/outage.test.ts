import { randomUUID } from 'node:crypto';
import net from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { AppDeps } from '../lib/deps.js';
import { databaseStudies } from '../modules/studies/study-source.js';
import { MODEL_ERRORS } from '../modules/chat/chat.service.js';
import { createAndLogin, TestClock, testConfig, type TestApp, type TestUser } from '../../test/app.js';
import { chatClient, gate, REAL_INFO, streamedError, SwitchableModel } from '../../test/chat.js';
import { TEST_DIALECTS } from '../../test/databases.js';
import { insertExperimentRow } from '../../test/factories.js';
import { createDatabase, type Database } from './database.js';
import { migrateToLatest } from './migrator.js';
import { DATABASE_UNAVAILABLE_MESSAGE } from './unavailable.js';

// The server survives its database (docs/decisions/0072): a real PostgreSQL database of the test's own, reached
// through a TCP proxy the test can cut. Its connections are terminated, refused for a while, or left hanging
// (accepted, never answered); the app answers 503 meanwhile, never a 500, nothing is left unhandled, and it
// serves again within seconds. The production start with two workers is cut the same way in
// scripts/smoke/deploy.smoke.ts.

const url = process.env.TEST_DATABASE_URL ?? '';
const dbName = `studychat_outage_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
/** Short, so that the "hanging" outage costs the test a fraction of a second per request. */
const CONNECT_TIMEOUT_MS = 300;

/** A TCP proxy to PostgreSQL: passes bytes, or refuses connections, or accepts them and never answers. */
async function startProxy(target: { host: string; port: number }) {
  let mode: 'pass' | 'refuse' | 'hang' = 'pass';
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (mode === 'hang') return;
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the proxy has no port');
  const port = address.port;
  const cutAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    port,
    /** Every connection is cut and new ones are refused (nothing listens). */
    refuse: async () => {
      mode = 'refuse';
      cutAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    /** Every connection is cut; new ones are accepted and never answered (a firewall, a stuck pooler). */
    hang: () => {
      mode = 'hang';
      cutAll();
    },
    /** Passes bytes again; the connections left hanging stay open, as a firewall would leave them. */
    restore: async () => {
      if (mode === 'refuse') await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      mode = 'pass';
    },
    close: async () => {
      cutAll();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function adminQuery<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Ends every connection to the test's own database (and no other's). */
async function terminateOwnBackends(): Promise<number> {
  const rows = await adminQuery<{ n: string }>(
    'select count(pg_terminate_backend(pid)) as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [dbName],
  );
  return Number(rows[0]?.n ?? 0);
}

/** A reply during an outage: 503 with Retry-After and `{ error, code }`. */
function expectUnavailable(res: LightMyRequestResponse): void {
  expect({ status: res.statusCode, retryAfter: res.headers['retry-after'], body: res.json() as unknown }).toEqual({
    status: 503,
    retryAfter: '5',
    body: { error: DATABASE_UNAVAILABLE_MESSAGE, code: 'DATABASE_UNAVAILABLE' },
  });
}

/** Sends `text` through a TCP connection to `port`; resolves with the reply, or with the way the connection ended. */
function exchange(port: number, text: string, waitMs = 200): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let reply = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(reply === '' ? 'no answer' : reply);
    }, waitMs);
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      clearTimeout(timer);
      socket.destroy();
      resolve(reply);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(error.code ?? 'error');
    });
    socket.write(text);
  });
}

// The proxy the outage tests cut PostgreSQL with, checked on its own (no database needed): it passes bytes, refuses
// connections, or accepts them and never answers, and passes again once restored.
describe("the outage tests' cutting proxy", () => {
  it('passes, refuses, hangs and passes again', async () => {
    const echo = net.createServer((socket) => socket.pipe(socket));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const address = echo.address();
    if (!address || typeof address === 'string') throw new Error('the echo server has no port');
    const proxy = await startProxy({ host: '127.0.0.1', port: address.port });
    try {
      expect(await exchange(proxy.port, 'ping')).toBe('ping');
      await proxy.refuse();
      expect(await exchange(proxy.port, 'ping')).toBe('ECONNREFUSED');
      await proxy.restore();
      proxy.hang();
      expect(await exchange(proxy.port, 'ping')).toBe('no answer');
      await proxy.restore();
      expect(await exchange(proxy.port, 'pong')).toBe('pong');
    } finally {
      await proxy.close();
      await new Promise<void>((resolve) => echo.close(() => resolve()));
    }
  });
});

describe.each(TEST_DIALECTS.filter((d) => d === 'postgres'))('the server survives its database on %s', () => {
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let database: Database;
  let t: TestApp;
  const model = new SwitchableModel();
  const chat = chatClient(() => t);
  let admin: TestUser;
  let experimentId: string;
  const unhandled: unknown[] = [];
  const record = (error: unknown) => unhandled.push(error);

  beforeAll(async () => {
    process.on('unhandledRejection', record);
    process.on('uncaughtException', record);
    await adminQuery(`create database ${dbName}`);
    const real = new URL(url);
    proxy = await startProxy({ host: real.hostname, port: Number(real.port || 5432) });
    const viaProxy = new URL(url);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    viaProxy.pathname = `/${dbName}`;
    database = createDatabase({
      databaseUrl: viaProxy.toString(),
      sqliteFile: '',
      pgPoolSize: 4,
      pgConnectTimeoutMs: CONNECT_TIMEOUT_MS,
    });
    await migrateToLatest(database.db);
    const clock = new TestClock();
    const deps: AppDeps = {
      database,
      clock: clock.fn,
      newId: randomUUID,
      random: Math.random,
      llm: model,
      ...databaseStudies(database),
    };
    const app = await buildApp(testConfig(), deps);
    await app.ready();
    t = { app, database, deps, clock, dialect: 'postgres' };
    admin = await createAndLogin(t, { isAdmin: true });
    experimentId = String((await insertExperimentRow(database.db)).id);
  });

  beforeEach(() => {
    unhandled.length = 0;
  });

  afterAll(async () => {
    await t.app.close();
    await database.close();
    await proxy.close();
    await adminQuery(`drop database if exists ${dbName} with (force)`);
    process.off('unhandledRejection', record);
    process.off('uncaughtException', record);
  });

  const login = (user: TestUser) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: user.password } });
  const join = async (user: TestUser) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/participants',
      headers: user.headers,
      payload: { user_id: user.id, experiment_id: experimentId, prolific_pid: `PID-${user.id.slice(0, 8)}` },
    });
    expect(res.statusCode).toBe(201);
  };
  /** A participant's write that may be repeated: a repeat keeps the first consent and answers 200. */
  const consent = (user: TestUser) =>
    t.app.inject({
      method: 'POST',
      url: '/api/participants/consent',
      headers: user.headers,
      payload: { experimentId },
    });

  /** A participant who has joined the experiment, logged in. */
  async function participant(): Promise<TestUser> {
    const user = await createAndLogin(t);
    await join(user);
    return user;
  }

  /**
   * Polls (a bounded loop on a real database, no fixed sleep) until a login and a participant's write succeed;
   * every reply before that is a 503 with its body, never a 500. Returns how many tries it took.
   */
  async function servesAgain(user: TestUser): Promise<number> {
    for (let attempt = 1; attempt <= 100; attempt++) {
      const [loggedIn, consented] = [await login(user), await consent(user)];
      if (loggedIn.statusCode === 200 && consented.statusCode === 200) return attempt;
      for (const res of [loggedIn, consented]) if (res.statusCode >= 300) expectUnavailable(res);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the server did not serve again within 100 tries');
  }

  it('a terminated connection stops nothing: the pool connects again for the next requests', async () => {
    const user = await participant();
    expect(await terminateOwnBackends()).toBeGreaterThan(0);
    await servesAgain(user);
    expect(unhandled).toEqual([]);
  });

  it('while the database refuses connections: 503 with Retry-After, not ready but alive; served again once it is back', async () => {
    const user = await participant();
    const { user: chatter, threadId } = await chat.startThread();
    // A reply in flight when the database goes away: its text is saved as it streams, then stored at the end.
    const started = gate();
    const release = gate();
    model.behaviour = async (_request, onText) => {
      onText('Measles is ');
      started.open();
      await release.opened;
      t.clock.advance(60_000); // the partial saver's interval has passed: the next token saves (and fails)
      onText('a virus.');
      return REAL_INFO;
    };
    const reply = chat.send(chatter, threadId, 'Is measles serious?');
    await started.opened;

    await proxy.refuse();
    expectUnavailable(await login(user));
    expectUnavailable(await consent(user));
    expectUnavailable(
      await t.app.inject({ method: 'GET', url: `/api/experiments/${experimentId}/monitor`, headers: admin.headers }),
    );
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect({ status: ready.statusCode, body: ready.json() as unknown }).toEqual({
      status: 503,
      body: { status: 'not_ready', checks: { database: false, migrations: false, model: true } },
    });
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect({ status: health.statusCode, body: health.json() as unknown }).toMatchObject({
      status: 200,
      body: { status: 'degraded', database: { reachable: false } },
    });

    release.open();
    // The reply could not be stored: the participant is told so, the stream ends, the process carries on.
    expect(streamedError(await reply)).toBe(MODEL_ERRORS.notSaved);

    await proxy.restore();
    await servesAgain(user);
    expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    expect(unhandled).toEqual([]);
  });

  it('while connections hang unanswered: each request gets its 503 within the connect time-out, and the pool recovers', async () => {
    const user = await participant();
    proxy.hang();
    // More requests than the pool has connections: none waits for ever behind a connection that never opens.
    const during = await Promise.all(Array.from({ length: 6 }, () => login(user)));
    for (const res of during) expectUnavailable(res);
    // The hung connections are left open, as a firewall would leave them; the time-out frees their places.
    await proxy.restore();
    await servesAgain(user);
    expect(unhandled).toEqual([]);
  });
});

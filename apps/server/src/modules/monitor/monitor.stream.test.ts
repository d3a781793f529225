import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { MonitorTick } from './monitor.stream.js';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import type { Database } from '../../db/database.js';
import { builtInStudy, noFlows, type AppDeps } from '../../lib/deps.js';
import { createStudyScriptedModel } from '../../llm/create-chat-model.js';
import { createUser } from '../users/users.service.js';
import {
  createAndLogin,
  createTestApp,
  newSession,
  TestClock,
  testConfig,
  type TestApp,
  type TestUser,
} from '../../../test/app.js';
import { createSharedPgDatabases, dropTestSchemas, TEST_DIALECTS } from '../../../test/databases.js';
import { insertMemberRow } from '../../../test/factories.js';
import { createExperiment, participantAt, send } from '../participants/journey.fixtures.js';

const STREAM = { monitorStream: { pollMs: 20, maxMs: 60_000, keepAliveMs: 60_000, snapshotMs: 0 } };

/** Reads a monitor stream over a real socket, tick by tick. */
async function openStream(app: FastifyInstance, experimentId: string, user: TestUser) {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const controller = new AbortController();
  const res = await fetch(`http://127.0.0.1:${port}/api/experiments/${experimentId}/monitor/stream`, {
    headers: user.headers,
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  if (!res.body) throw new Error('no body');
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const ticks: MonitorTick[] = [];
  /** Waits for the first tick that satisfies `done` (ticks arrive as the log moves; no fixed sleep). */
  const next = async (done: (tick: MonitorTick) => boolean): Promise<MonitorTick> => {
    for (;;) {
      const found = ticks.find(done);
      if (found) return found;
      const { value, done: ended } = await reader.read();
      if (ended) throw new Error('stream ended');
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) !== -1) {
        const event = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (event.startsWith('data: {')) ticks.push(JSON.parse(event.slice(6)) as MonitorTick);
      }
    }
  };
  /** Reads to the end of the stream (the server ended it); the events' text after the last tick read. */
  const ended = async (): Promise<string> => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return buffer;
      buffer += decoder.decode(value, { stream: true });
    }
  };
  return { next, ended, close: () => controller.abort() };
}

describe.each(TEST_DIALECTS)('the monitor stream on %s', (dialect) => {
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.app.close();
    await t?.database.close();
    await dropTestSchemas();
  });

  it('tells a watching admin the log moved when a participant takes a step', async () => {
    t = await createTestApp(dialect, { config: STREAM });
    const admin = await createAndLogin(t, { isAdmin: true });
    const experimentId = (await createExperiment(t, admin)).id;
    const first = await participantAt(t, experimentId, 'joined');
    const stream = await openStream(t.app, experimentId, admin);
    const start = await stream.next(() => true);
    expect(start.events).toBe(0);
    expect(start.seq).toBeGreaterThan(0);
    expect((await send(t, first, 'POST', '/api/participants/consent', { experimentId })).statusCode).toBe(200);
    const moved = await stream.next((tick) => tick.seq > start.seq);
    expect(moved.events).toBeGreaterThanOrEqual(1);
    stream.close();
  });

  it('refuses participants and unknown experiments before streaming', async () => {
    t ??= await createTestApp(dialect, { config: STREAM });
    const participant = await createAndLogin(t);
    const admin = await createAndLogin(t, { isAdmin: true });
    const experimentId = (await createExperiment(t, admin)).id;
    expect((await send(t, participant, 'GET', `/api/experiments/${experimentId}/monitor/stream`)).statusCode).toBe(403);
    const missing = await send(t, admin, 'GET', `/api/experiments/${randomUUID()}/monitor/stream`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it("ends an admin's stream at the poll after the session is revoked, while another admin's stream runs on", async () => {
    t ??= await createTestApp(dialect, { config: STREAM });
    const leaving = await createAndLogin(t, { isAdmin: true });
    const staying = await createAndLogin(t, { isAdmin: true });
    const experimentId = (await createExperiment(t, staying)).id;
    await insertMemberRow(t.database.db, experimentId, leaving.id, 'viewer');
    const revoked = await openStream(t.app, experimentId, leaving);
    const kept = await openStream(t.app, experimentId, staying);
    const start = await kept.next(() => true);
    await revoked.next(() => true);
    // The stream's lifetime here is a minute: it ends this soon only because the session was revoked.
    expect((await send(t, leaving, 'POST', '/api/auth/logout')).statusCode).toBe(200);
    expect(await revoked.ended()).toContain('data: [DONE]');
    await participantAt(t, experimentId, 'joined');
    expect((await kept.next((tick) => tick.seq > start.seq)).events).toBeGreaterThanOrEqual(1);
    kept.close();
  });

  it("ends an analyst's stream once the account is no longer an analyst, and one whose session expired", async () => {
    t ??= await createTestApp(dialect, { config: STREAM });
    const admin = await createAndLogin(t, { isAdmin: true });
    const experimentId = (await createExperiment(t, admin)).id;
    const email = `analyst-${randomUUID().slice(0, 8)}@lab.test`;
    const { id } = await createUser(t.deps, {
      email,
      password: 'an-analyst-password',
      isAdmin: false,
      role: 'analyst',
    });
    const analyst = await newSession(t, { id, email }, 'analyst');
    await insertMemberRow(t.database.db, experimentId, id, 'viewer');
    const stream = await openStream(t.app, experimentId, analyst);
    await stream.next(() => true);
    await t.database.db.updateTable('users').set({ role: 'participant' }).where('id', '=', id).execute();
    expect(await stream.ended()).toContain('data: [DONE]');

    const expiring = await openStream(t.app, experimentId, admin);
    await expiring.next(() => true);
    t.clock.advance(testConfig().tokenTtlSeconds * 1000);
    expect(await expiring.ended()).toContain('data: [DONE]');
  });
});

// Several processes need a shared server database: PostgreSQL (SQLite serves one process).
const SHARED = TEST_DIALECTS.filter((d) => d === 'postgres');

describe.each(SHARED)('the monitor stream across server processes on %s', () => {
  const apps: FastifyInstance[] = [];
  let databases: Database[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const database of databases) await database.close();
    await dropTestSchemas();
  });

  it('shows an admin watching process B the steps taken through process A, both on one PostgreSQL', async () => {
    databases = await createSharedPgDatabases(2);
    const clock = new TestClock();
    const instances: TestApp[] = [];
    for (const database of databases) {
      const deps: AppDeps = {
        database,
        clock: clock.fn,
        newId: randomUUID,
        random: Math.random,
        llm: createStudyScriptedModel(),
        studies: builtInStudy,
        flows: noFlows,
      };
      const app = await buildApp(testConfig(STREAM), deps);
      await app.ready();
      apps.push(app);
      instances.push({ app, database, deps, clock, dialect: 'postgres' });
    }
    const [a, b] = instances as [TestApp, TestApp];
    const admin = await createAndLogin(a, { isAdmin: true });
    const experimentId = (await createExperiment(a, admin)).id;
    const stream = await openStream(b.app, experimentId, admin);
    const start = await stream.next(() => true);
    const participant = await participantAt(a, experimentId, 'consented');
    const moved = await stream.next((tick) => tick.seq > start.seq);
    expect(moved.events).toBeGreaterThanOrEqual(1);
    // B's snapshot sees what A wrote.
    const snapshot = (await send(b, admin, 'GET', `/api/experiments/${experimentId}/monitor`)).json() as {
      participants: { user_id: string; step: string }[];
    };
    expect(snapshot.participants.find((p) => p.user_id === participant.id)?.step).toBe('entry');
    stream.close();
  });
});

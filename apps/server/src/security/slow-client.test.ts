import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HTTP_LIMITS } from '../config.js';
import { serverLimits } from '../plugins/server-limits.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { dropTestSchemas, TEST_DIALECTS } from '../../test/databases.js';

// Slow and idle clients against a real listening socket (inject has no socket): a trickling body or
// header is cut, an idle keep-alive connection is closed, and connections beyond the ceiling are refused.
// The limits are scaled down from the defaults so each case ends in about a second; every client loop is
// bounded and stops as soon as the server has closed the connection.

const LIMITS = {
  headersTimeoutMs: 400,
  requestTimeoutMs: 800,
  keepAliveTimeoutMs: 300,
  idleTimeoutMs: 5_000,
  maxConnections: 4,
};
const TRICKLE_MS = 50;

interface Client {
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
  isClosed: () => boolean;
}

function open(port: number): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    let closed = false;
    const closedPromise = new Promise<void>((done) =>
      socket.on('close', () => {
        closed = true;
        done();
      }),
    );
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.once('connect', () =>
      resolve({ socket, received: () => data, closed: closedPromise, isClosed: () => closed }),
    );
    socket.once('error', reject);
  });
}

/** Writes `text` one byte at a time until done or the server closes; how many bytes went out. */
async function trickle(client: Client, text: string): Promise<number> {
  let sent = 0;
  for (const char of text) {
    if (client.isClosed() || client.socket.destroyed) break;
    client.socket.write(char);
    sent += 1;
    await new Promise((resolve) => setTimeout(resolve, TRICKLE_MS));
  }
  return sent;
}

describe.each(TEST_DIALECTS)('slow and idle clients on a real socket, on %s', (dialect) => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp(dialect, { config: { http: LIMITS } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.app.close();
    await t.database.close();
    await dropTestSchemas();
  });

  it('cuts a request whose body trickles in with 408 before it is complete', async () => {
    const client = await open(port);
    const body = JSON.stringify({ email: 'slow@study.test', password: 'x'.repeat(400) });
    client.socket.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    const sent = await trickle(client, body);
    await client.closed;
    expect(sent).toBeLessThan(body.length);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    // `{ error, code }` like every error reply (plugins/protocol-errors.ts).
    const reply = client.received();
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toEqual({
      error: 'The request took too long to arrive. Please try again.',
      code: 'REQUEST_TIMEOUT',
    });
  });

  it('cuts a request whose headers trickle in', async () => {
    const client = await open(port);
    const headers = `GET /api/health HTTP/1.1\r\nHost: localhost\r\n${'X-Slow: y\r\n'.repeat(40)}\r\n`;
    const sent = await trickle(client, headers);
    await client.closed;
    expect(sent).toBeLessThan(headers.length);
    expect(client.received()).not.toContain('200 OK');
  });

  it('closes an idle keep-alive connection after answering', async () => {
    const client = await open(port);
    client.socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n');
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(client.received().toLowerCase()).toContain('keep-alive');
  });

  it('refuses connections beyond the ceiling at once, and accepts them again once slots are free', async () => {
    const holders = await Promise.all(Array.from({ length: LIMITS.maxConnections }, () => open(port)));
    for (const h of holders) h.socket.write('GET /api/health HTTP/1.1\r\n');
    const extra = await open(port);
    extra.socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await extra.closed;
    expect(extra.received()).toBe('');
    // The holders never finish their headers: the header time-out frees their slots.
    await Promise.all(holders.map((h) => h.closed));
    const later = await open(port);
    later.socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    await later.closed;
    expect(later.received()).toMatch(/^HTTP\/1\.1 200 OK/);
  });
});

describe('default limits', () => {
  it('cut a trickling body within 30 s: the request deadline plus the interval at which Node checks it', () => {
    const options = serverLimits(DEFAULT_HTTP_LIMITS);
    const interval = options.http.connectionsCheckingInterval ?? 30_000;
    expect(options.requestTimeout + interval).toBeLessThanOrEqual(30_000);
    expect(options.http.headersTimeout).toBeLessThanOrEqual(options.requestTimeout);
    expect(options.keepAliveTimeout).toBeLessThanOrEqual(10_000);
  });
});

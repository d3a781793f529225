import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorCode } from '@studychat/contracts';
import { createTestApp, type TestApp } from '../../test/app.js';
import { dropTestSchemas, TEST_DIALECTS } from '../../test/databases.js';

// Every error the server sends is `{ error, code }`, those Node and Fastify would write themselves included
// (plugins/protocol-errors.ts, docs/decisions/0074-hardening.md). On a real socket: inject has no HTTP parser, so
// most of these never reach it. (The 408 of a request that arrives too slowly: slow-client.test.ts.)

interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends raw bytes and reads until the server closes the connection. */
function exchange(port: number, request: string): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const cut = data.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = data.slice(0, cut).split('\r\n');
      const match = /^HTTP\/1\.1 (\d{3}) /.exec(statusLine);
      if (!match?.[1]) return reject(new Error(`no HTTP reply: ${JSON.stringify(data.slice(0, 200))}`));
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(match[1]), headers, body: data.slice(cut + 4) });
    });
    socket.write(request);
  });
}

const get = (target: string, headers = '') =>
  `GET ${target} HTTP/1.1\r\nHost: localhost\r\n${headers}Connection: close\r\n\r\n`;
const post = (headers: string, body: string) =>
  `POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\n${headers}Connection: close\r\n\r\n${body}`;
const json = (body: string) =>
  post(`Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`, body);

/** Each case: the raw request, the status and code of its reply. */
const CASES: Record<string, [request: string, status: number, code: ErrorCode]> = {
  'a 60 KB query string (431)': [get(`/api/health?q=${'x'.repeat(60_000)}`), 431, 'HEADERS_TOO_LARGE'],
  'a 20 KB header (431)': [get('/api/health', `X-Big: ${'y'.repeat(20_000)}\r\n`), 431, 'HEADERS_TOO_LARGE'],
  'a request line that is not HTTP (400)': ['HELLO THERE\r\n\r\n', 400, 'BAD_REQUEST'],
  'a header name with a space (400)': [get('/api/health', 'Bad Header: x\r\n'), 400, 'BAD_REQUEST'],
  'Content-Length and Transfer-Encoding together (400)': [
    post('Content-Length: 5\r\nTransfer-Encoding: chunked\r\n', '0\r\n\r\n'),
    400,
    'BAD_REQUEST',
  ],
  'a Content-Length that is not a number (400)': [post('Content-Length: abc\r\n', ''), 400, 'BAD_REQUEST'],
  'a malformed chunk (400)': [
    post('Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n', 'ZZ\r\n{}\r\n0\r\n\r\n'),
    400,
    'BAD_REQUEST',
  ],
  'chunk extensions over the limit (413)': [
    post(
      'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n',
      `2;${'e'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`,
    ),
    413,
    'PAYLOAD_TOO_LARGE',
  ],
  'an HTTP/1.1 request without Host (400)': [
    'GET /api/health HTTP/1.1\r\nConnection: close\r\n\r\n',
    400,
    'BAD_REQUEST',
  ],
  'an Expect header the server cannot meet (417)': [
    post('Expect: the-impossible\r\nContent-Type: application/json\r\nContent-Length: 2\r\n', '{}'),
    417,
    'BAD_REQUEST',
  ],
  'a badly encoded path (400)': [get('/api/chat/threads/%zz/messages'), 400, 'BAD_REQUEST'],
  'a path parameter over the limit (414)': [get(`/api/chat/threads/${'a'.repeat(200)}/messages`), 414, 'URI_TOO_LONG'],
  'an unknown route (404)': [get('/api/no-such-route'), 404, 'NOT_FOUND'],
  'an unknown method on a known path (404)': [
    'OPTIONS /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    404,
    'NOT_FOUND',
  ],
  'a body that is not JSON (400)': [json('{not json'), 400, 'BAD_REQUEST'],
  'an empty JSON body (400)': [json(''), 400, 'BAD_REQUEST'],
  'a body over the limit (413)': [
    post('Content-Type: application/json\r\nContent-Length: 200000\r\n', '{}'),
    413,
    'PAYLOAD_TOO_LARGE',
  ],
  'a body that is not JSON by its type (415)': [
    post('Content-Type: text/plain\r\nContent-Length: 2\r\n', 'hi'),
    415,
    'BAD_REQUEST',
  ],
  'a JSON body that fails validation (400)': [json('{"email":1}'), 400, 'VALIDATION_FAILED'],
};

describe.each(TEST_DIALECTS)('error replies on a real socket, on %s', (dialect) => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.app.close();
    await t.database.close();
    await dropTestSchemas();
  });

  it.each(Object.entries(CASES))('answers %s with { error, code }', async (_name, [request, status, code]) => {
    const reply = await exchange(port, request);
    expect(reply.status).toBe(status);
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['cache-control']).toBe('no-store');
    const body = JSON.parse(reply.body) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['code', 'error']);
    expect(body.code).toBe(code);
    expect(body.error).toEqual(expect.any(String));
  });

  it('still answers a well-formed request on the same server', async () => {
    const reply = await exchange(port, get('/api/health'));
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ status: 'ok' });
    // HTTP/1.0 needs no Host.
    const old = await exchange(port, 'GET /api/health HTTP/1.0\r\n\r\n');
    expect(old.status).toBe(200);
  });
});

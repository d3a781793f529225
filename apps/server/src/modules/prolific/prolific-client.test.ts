import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProlific, type FakeProlific } from '../../../test/fakes/prolific-fake.js';
import { ProlificClient, ProlificError, retryAfterMs } from './prolific-client.js';

// The client alone against the fake Prolific (test/fakes/prolific-fake.ts) and a server that never answers:
// errors of their own for 401 and 404, 429 waited out through the injected sleep, a time-out, and a next link
// to another host never followed (the token is sent to Prolific only).

const NOW = new Date('2026-11-20T10:00:00.000Z');

describe('ProlificClient', () => {
  let fake: FakeProlific;
  const slept: number[] = [];
  const client = (token = fake.token, baseUrl = fake.url, timeoutMs = 2000) =>
    new ProlificClient({
      baseUrl,
      token,
      timeoutMs,
      clock: () => NOW,
      sleep: async (ms) => {
        slept.push(ms);
      },
    });

  beforeAll(async () => {
    fake = await startFakeProlific();
  });
  afterAll(() => fake.close());
  afterEach(() => {
    slept.length = 0;
    fake.requests.length = 0;
    fake.failures.length = 0;
    fake.submissions.length = 0;
  });

  it('names a refused token and an unknown submission', async () => {
    await expect(client('wrong-token').me()).rejects.toMatchObject({ kind: 'unauthorized', status: 401 });
    await expect(client().completeSubmission('nope', 'CODE')).rejects.toMatchObject({ kind: 'not_found', status: 404 });
    await expect(client().me()).resolves.toEqual({ id: fake.account.id, email: fake.account.email });
  });

  it('waits Retry-After (seconds or a date), else backs off exponentially, on the injected sleep', async () => {
    fake.failures.push(
      { status: 429, retryAfter: '2' },
      { status: 429, retryAfter: 'Fri, 20 Nov 2026 10:00:05 GMT' },
      { status: 429 },
      { status: 429 },
    );
    await client().me();
    expect(slept).toEqual([2000, 5000, 4000, 8000]);
    expect(retryAfterMs('soon', NOW)).toBeNull();
    expect(retryAfterMs('100000', NOW)).toBe(60_000);
  });

  it('pages through every submission of a study by the next links', async () => {
    fake.pageSize = 3;
    for (let i = 0; i < 7; i++) {
      fake.submissions.push({ id: `S${i}`, participant_id: `P${i}`, study_id: 'STUDY1', status: 'ACTIVE' });
    }
    fake.submissions.push({ id: 'X', participant_id: 'PX', study_id: 'OTHER', status: 'ACTIVE' });
    const all = await client().listSubmissions('STUDY1');
    fake.pageSize = 20;
    expect(all.map((s) => s.id)).toEqual(['S0', 'S1', 'S2', 'S3', 'S4', 'S5', 'S6']);
    expect(all[0]).toEqual({ id: 'S0', participantId: 'P0', status: 'ACTIVE', studyId: 'STUDY1' });
    expect(fake.requests).toHaveLength(3);
  });

  describe('against a server of its own', () => {
    let server: Server;
    let url = '';
    let handle: (path: string) => { status: number; body: unknown } | 'stall' = () => 'stall';
    beforeAll(async () => {
      server = createServer((req, res) => {
        const answer = handle(req.url ?? '');
        if (answer === 'stall') return;
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('gives up on a call that does not answer in time', async () => {
      handle = () => 'stall';
      const error = await client('t', url, 50)
        .me()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProlificError);
      expect(error).toMatchObject({ kind: 'unavailable', message: 'Prolific did not answer in time' });
    });

    it('never follows a next link to another host', async () => {
      handle = () => ({
        status: 200,
        body: {
          results: [{ id: 'S1', participant_id: 'P1' }],
          _links: { next: { href: 'http://prolific.example.invalid/steal' } },
        },
      });
      await expect(client('t', url).listSubmissions('STUDY1')).rejects.toMatchObject({ kind: 'unavailable' });
    });

    it('reads a 5xx as unavailable (worth retrying) and a 400 as refused (final)', async () => {
      handle = () => ({ status: 503, body: {} });
      const down = await client('t', url)
        .me()
        .catch((e: unknown) => e);
      expect(down).toMatchObject({ kind: 'unavailable', transient: true });
      handle = () => ({ status: 400, body: { error: 'bad code' } });
      const refused = await client('t', url)
        .completeSubmission('S1', 'CODE')
        .catch((e: unknown) => e);
      expect(refused).toMatchObject({ kind: 'rejected', transient: false });
    });
  });
});

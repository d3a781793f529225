import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { signWebhook } from '../../src/modules/prolific/webhook-signature.js';
import { handleStudyRequest, type FakeStudyState } from './prolific-fake-studies.js';

// A fake of Prolific's researcher API on 127.0.0.1, following its documentation as docs/decisions/0083 records
// it: `Authorization: Token <token>` (401 otherwise), GET /api/v1/users/me/, GET /api/v1/submissions/?study=
// paged with absolute `_links.next.href`, POST /api/v1/submissions/{id}/transition/ (404 for an unknown
// submission, 400 for a code the study does not have), POST /api/v1/submissions/bulk-approve/ by submission ids,
// and scripted failures (429 with Retry-After, 5xx).
// `webhook()` builds a signed submission.status.change delivery the way Prolific sends one.

export interface FakeSubmission {
  id: string;
  participant_id: string;
  study_id: string;
  status: string;
}

export interface FakeProlificRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

export interface FakeFailure {
  status: number;
  retryAfter?: string;
}

export interface FakeProlific extends FakeStudyState {
  url: string;
  token: string;
  account: { id: string; email: string };
  submissions: FakeSubmission[];
  /** Completion codes each study accepts (a study not listed accepts any). */
  codes: Map<string, string[]>;
  pageSize: number;
  requests: FakeProlificRequest[];
  /** Answered, in order, before any normal reply. */
  failures: FakeFailure[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export async function startFakeProlific(options: { token?: string; port?: number } = {}): Promise<FakeProlific> {
  const sockets = new Set<Socket>();
  const fake: FakeProlific = {
    url: '',
    token: options.token ?? 'fake-prolific-token-0001',
    account: { id: '60aca280709ee40ec37d4885', email: 'researcher@example.org' },
    submissions: [],
    codes: new Map(),
    pageSize: 20,
    requests: [],
    failures: [],
    studies: [],
    credentialPools: [],
    close: async () => {},
  };

  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const url = new URL(req.url ?? '/', fake.url);
      fake.requests.push({
        method: req.method ?? '',
        path: url.pathname + url.search,
        authorization: req.headers.authorization,
        body,
      });
      const failure = fake.failures.shift();
      if (failure) {
        const headers: Record<string, string> = failure.retryAfter ? { 'retry-after': failure.retryAfter } : {};
        return json(res, failure.status, { error: { detail: 'scripted failure' } }, headers);
      }
      if (req.headers.authorization !== `Token ${fake.token}`) {
        return json(res, 401, { error: { detail: 'Invalid token.' } });
      }
      if (handleStudyRequest(fake, req.method ?? '', url.pathname, body, res, json)) return;
      if (req.method === 'GET' && url.pathname === '/api/v1/users/me/') {
        return json(res, 200, { ...fake.account, first_name: 'Fake', last_name: 'Researcher' });
      }
      if (req.method === 'GET' && url.pathname === '/api/v1/submissions/') {
        const study = url.searchParams.get('study');
        const page = Number(url.searchParams.get('page') ?? '1');
        const all = fake.submissions.filter((s) => study === null || s.study_id === study);
        const results = all.slice((page - 1) * fake.pageSize, page * fake.pageSize);
        const more = page * fake.pageSize < all.length;
        const link = (p: number) => {
          const next = new URL('/api/v1/submissions/', fake.url);
          if (study !== null) next.searchParams.set('study', study);
          next.searchParams.set('page', String(p));
          return { href: next.toString(), title: 'Page' };
        };
        return json(res, 200, {
          results: results.map((s) => ({ ...s, started_at: '2026-11-20T10:00:00Z' })),
          _links: { self: link(page), next: more ? link(page + 1) : { href: null }, previous: { href: null } },
          meta: { count: all.length },
        });
      }
      if (req.method === 'POST' && url.pathname === '/api/v1/submissions/bulk-approve/') {
        const ids = (body as { submission_ids?: unknown } | undefined)?.submission_ids;
        if (!Array.isArray(ids) || ids.length === 0) return json(res, 400, { error: { detail: 'No submissions.' } });
        for (const submission of fake.submissions) {
          if (ids.includes(submission.id) && submission.status === 'AWAITING REVIEW') submission.status = 'APPROVED';
        }
        return json(res, 200, { detail: 'Bulk approve in progress' });
      }
      const transition = /^\/api\/v1\/submissions\/([^/]+)\/transition\/$/.exec(url.pathname);
      if (req.method === 'POST' && transition) {
        const submission = fake.submissions.find((s) => s.id === decodeURIComponent(transition[1] ?? ''));
        if (!submission) return json(res, 404, { error: { detail: 'Not found.' } });
        const { action, completion_code: code } = (body ?? {}) as { action?: string; completion_code?: string };
        const allowed = fake.codes.get(submission.study_id);
        if (action !== 'COMPLETE' || typeof code !== 'string' || (allowed && !allowed.includes(code))) {
          return json(res, 400, { error: { detail: 'Invalid completion code.' } });
        }
        if (submission.status === 'ACTIVE') submission.status = 'AWAITING REVIEW';
        return json(res, 200, {
          id: submission.id,
          status: submission.status,
          study_id: submission.study_id,
          participant: submission.participant_id,
          entered_code: code,
        });
      }
      return json(res, 404, { error: { detail: 'Not found.' } });
    })().catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return fake;
}

/** A webhook delivery as Prolific sends it: the JSON body, X-Event-ID and the signature headers. */
export function webhook(
  secret: string,
  event: { resource_id: string; participant_id?: string | null; status?: string; event_type?: string },
  options: { eventId?: string; timestamp?: number } = {},
): { payload: string; headers: Record<string, string> } {
  const payload = JSON.stringify({ event_type: 'submission.status.change', ...event });
  const timestamp = String(options.timestamp ?? 1_795_000_000);
  return {
    payload,
    headers: {
      'content-type': 'application/json',
      'x-event-id': options.eventId ?? `evt-${Math.random().toString(36).slice(2)}`,
      'x-prolific-request-timestamp': timestamp,
      'x-prolific-request-signature': signWebhook(secret, timestamp, payload),
    },
  };
}

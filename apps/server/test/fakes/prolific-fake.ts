import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { signWebhook } from '../../src/modules/prolific/webhook-signature.js';
import { handleStudyRequest, type FakeStudyState } from './prolific-fake-studies.js';
import { handleGroupRequest, type FakeGroupState } from './prolific-fake-groups.js';

// A fake of Prolific's researcher API on 127.0.0.1, following its documentation as docs/decisions/0083 records
// it: `Authorization: Token <token>` (401 otherwise), GET /api/v1/users/me/, GET /api/v1/submissions/?study=
// paged with absolute `_links.next.href`, POST /api/v1/submissions/{id}/transition/ (404 for an unknown
// submission, 400 for a code the study does not have), POST /api/v1/submissions/bulk-approve/ by submission ids,
// and scripted failures (429 with Retry-After, 5xx), optionally only for one path.
// Review and pay (docs/decisions/0089): the REJECT transition (a category from Prolific's list and a message of 100+
// characters, only a submission awaiting review), bonus set-up (POST /api/v1/submissions/bonus-payments/ with
// study_id and csv_bonuses) and its pay (POST /api/v1/bulk-bonus-payments/{id}/pay/), which, as Prolific documents,
// is not idempotent: every pay call pays again, and `paid` counts them per bulk id.
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
  /** Only a request whose path starts with this (else the next request, whatever it is). */
  path?: string;
  /** Do the work first, then answer the failure (a pay that went through but whose answer was lost). */
  afterWork?: boolean;
}

export interface FakeBonusSetUp {
  id: string;
  study_id: string;
  csv_bonuses: string;
  amount: number;
}

export interface FakeProlific extends FakeStudyState, FakeGroupState {
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
  /** Every bonus set-up, in order. */
  bonusSetUps: FakeBonusSetUp[];
  /** How many times each bulk bonus id was paid (Prolific pays again on every call). */
  paid: Map<string, number>;
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
    participantGroups: [],
    bonusSetUps: [],
    paid: new Map(),
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
      const at = fake.failures.findIndex((f) => f.path === undefined || url.pathname.startsWith(f.path));
      const failure = at >= 0 ? fake.failures.splice(at, 1)[0] : undefined;
      if (failure?.afterWork) {
        const sink = { writeHead: () => sink, end: () => sink } as unknown as ServerResponse;
        if (req.headers.authorization === `Token ${fake.token}`)
          handleBonus(fake, req.method, url.pathname, body, sink);
      }
      if (failure) {
        const headers: Record<string, string> = failure.retryAfter ? { 'retry-after': failure.retryAfter } : {};
        return json(res, failure.status, { error: { detail: 'scripted failure' } }, headers);
      }
      if (req.headers.authorization !== `Token ${fake.token}`) {
        return json(res, 401, { error: { detail: 'Invalid token.' } });
      }
      if (handleStudyRequest(fake, req.method ?? '', url.pathname, body, res, json)) return;
      if (handleGroupRequest(fake, req.method ?? '', url.pathname, body, res, json)) return;
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
      if (handleBonus(fake, req.method, url.pathname, body, res)) return;
      const transition = /^\/api\/v1\/submissions\/([^/]+)\/transition\/$/.exec(url.pathname);
      if (req.method === 'POST' && transition) {
        const submission = fake.submissions.find((s) => s.id === decodeURIComponent(transition[1] ?? ''));
        if (!submission) return json(res, 404, { error: { detail: 'Not found.' } });
        const { action, completion_code: code } = (body ?? {}) as { action?: string; completion_code?: string };
        if (action === 'REJECT') return reject(submission, body, res);
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

const REJECTION_CATEGORIES = new Set([
  'TOO_QUICKLY',
  'TOO_SLOWLY',
  'FAILED_INSTRUCTIONS',
  'INCOMP_LONGITUDINAL',
  'FAILED_CHECK',
  'LOW_EFFORT',
  'MALINGERING',
  'NO_CODE',
  'BAD_CODE',
  'NO_DATA',
  'UNSUPP_DEVICE',
  'OTHER',
]);

function reject(submission: FakeSubmission, body: unknown, res: ServerResponse): void {
  const { message, rejection_category: category } = (body ?? {}) as { message?: unknown; rejection_category?: unknown };
  if (typeof message !== 'string' || message.length < 100) {
    return json(res, 400, { error: { detail: 'The message must be at least 100 characters.' } });
  }
  if (typeof category !== 'string' || !REJECTION_CATEGORIES.has(category)) {
    return json(res, 400, { error: { detail: 'Invalid rejection category.' } });
  }
  if (submission.status !== 'AWAITING REVIEW') {
    return json(res, 400, { error: { detail: 'Only a submission awaiting review can be rejected.' } });
  }
  submission.status = 'REJECTED';
  json(res, 200, { id: submission.id, status: submission.status, study_id: submission.study_id });
}

/** Bonus set-up and pay; false when the request is neither. */
function handleBonus(
  fake: FakeProlific,
  method: string | undefined,
  path: string,
  body: unknown,
  res: ServerResponse,
): boolean {
  if (method === 'POST' && path === '/api/v1/submissions/bonus-payments/') {
    const { study_id: studyId, csv_bonuses: csv } = (body ?? {}) as { study_id?: unknown; csv_bonuses?: unknown };
    if (typeof studyId !== 'string' || typeof csv !== 'string' || csv.trim() === '') {
      json(res, 400, { error: { detail: 'study_id and csv_bonuses are required.' } });
      return true;
    }
    let amount = 0;
    for (const line of csv.split('\n').filter((l) => l.trim() !== '')) {
      const [pid, value] = line.split(',');
      if (!pid || !value || !/^\d+(\.\d{1,2})?$/.test(value.trim())) {
        json(res, 400, { error: { detail: `Invalid line: ${line}` } });
        return true;
      }
      amount += Math.round(Number(value) * 100);
    }
    const id = `bulk${fake.bonusSetUps.length + 1}${Math.random().toString(36).slice(2, 10)}`;
    fake.bonusSetUps.push({ id, study_id: studyId, csv_bonuses: csv, amount });
    // As documented: amounts in minor units (two bonuses of 4.25 answer amount 850, fees 283.34).
    const fees = Math.round((amount / 3) * 100) / 100;
    json(res, 201, { id, study: studyId, amount, fees, total_amount: amount + fees, vat: 0 });
    return true;
  }
  const pay = /^\/api\/v1\/bulk-bonus-payments\/([^/]+)\/pay\/$/.exec(path);
  if (method === 'POST' && pay) {
    const id = decodeURIComponent(pay[1] ?? '');
    if (!fake.bonusSetUps.some((b) => b.id === id)) {
      json(res, 404, { error: { detail: 'Not found.' } });
      return true;
    }
    fake.paid.set(id, (fake.paid.get(id) ?? 0) + 1);
    json(res, 202, `Bulk bonus payment with ID ${id} is being processed asynchronously.`);
    return true;
  }
  return false;
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

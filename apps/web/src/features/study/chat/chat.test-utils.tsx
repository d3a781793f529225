// Helpers for the chat page tests: a fake server behind fetch, and controllable event streams.
import { Guarded } from '../test-support';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from '../../../lib/router';
import { vi } from 'vitest';
import type { Journey } from '@studychat/contracts/web';
import { setToken } from '../../../lib/session';
import type { PageStudy } from '../study-context';
import { ChatPage } from './ChatPage';

export const EXPERIMENT = '11111111-1111-4111-8111-111111111111';
export const THREAD = '22222222-2222-4222-8222-222222222222';
export const USER = '33333333-3333-4333-8333-333333333333';

export function loginAsParticipant(): void {
  const payload = btoa(JSON.stringify({ userId: USER, email: 'p@study.test', isAdmin: false })).replace(/=+$/, '');
  setToken(`eyJhbGciOiJIUzI1NiJ9.${payload}.sig`);
}

export function sse(events: unknown[], { done = true } = {}): Response {
  const text = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : '');
  return new Response(new TextEncoder().encode(text), {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
  });
}

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** An event stream the test feeds by hand. */
export function openStream() {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    response: new Response(body, { status: 200 }),
    text(t: string) {
      controller?.enqueue(encoder.encode(`data: ${JSON.stringify({ text: t })}\n\n`));
    },
    finish() {
      controller?.enqueue(encoder.encode('data: [DONE]\n\n'));
      controller?.close();
    },
  };
}

export interface Call {
  method: string;
  url: string;
  body: unknown;
}

export type Handler = (call: Call) => Response | Promise<Response>;

/** Routes fetch calls to handlers keyed 'METHOD /path'; records every call. */
export function fakeServer(handlers: Partial<Record<string, Handler>>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const call: Call = { method, url, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined };
    calls.push(call);
    const handler = handlers[`${method} ${url}`];
    if (!handler) return json(404, { error: 'Not found', code: 'NOT_FOUND' });
    return handler(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, sent: () => calls.filter((c) => c.method === 'POST' && c.url.endsWith('/messages')) };
}

export const paths = {
  initiate: 'POST /api/chat/initiate',
  initial: `GET /api/chat/threads/${THREAD}/initial-message`,
  send: `POST /api/chat/threads/${THREAD}/messages`,
  messages: `GET /api/chat/threads/${THREAD}/messages`,
};

export const progress = (rounds: number, chars: number) => {
  const points = rounds * 10 + chars * 0.5;
  return { rounds, chars, points, complete: points >= 100 && rounds >= 3, closed: null };
};

export const LIMITS = { maxMessageChars: 1000, messagesLeft: 30 };
/** What every thread reply carries besides messages and progress: the limits, and no reply being written. */
export const THREAD_EXTRA = { limits: LIMITS, replying: false };

/** The chat page, with the server's journey and the experiment's study as its study guard hands them down (none by default). */
export function renderChat(journey: Journey | null = null, study: PageStudy | null = null) {
  return render(
    <Guarded journey={journey} study={study}>
      <MemoryRouter initialEntries={[`/experiment/${EXPERIMENT}/chat`]}>
        <Routes>
          <Route path="/experiment/:experimentId/chat" element={<ChatPage />} />
          <Route path="/post-survey" element={<p>Post-survey page</p>} />
        </Routes>
      </MemoryRouter>
    </Guarded>,
  );
}

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { LOCAL_KEYS } from '../../lib/storage-keys';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from '../../lib/router';
import { vi } from 'vitest';

export interface Call {
  method: string;
  url: string;
  body: unknown;
}

type Handler = (call: Call) => Response | Promise<Response>;

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/**
 * Stubs fetch with handlers keyed `METHOD /path` (query string ignored) and records every call.
 * An unmatched call answers 404 so a missing handler shows up as a failing assertion, not a hang.
 */
export function mockFetch(handlers: Record<string, Handler>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      const call = { method, url: input, body };
      calls.push(call);
      const handler = handlers[`${method} ${input.split('?')[0] ?? ''}`];
      return handler ? handler(call) : json(404, { error: 'Not found', code: 'NOT_FOUND' });
    }),
  );
  return calls;
}

/** Stores a token for an admin (default) or a read-only analyst: the pages read it to decide what to show. */
export function signInAs(role: 'admin' | 'analyst'): void {
  const claims = { userId: crypto.randomUUID(), email: `${role}@lab.test`, isAdmin: role === 'admin', role };
  const body = btoa(JSON.stringify(claims)).replace(/=+$/, '');
  localStorage.setItem(LOCAL_KEYS.token, `e30.${body}.sig`);
}

/** Renders a page at `path` matched by `route`, with a fresh query client (no retries), signed in as `as`. */
export function renderPage(
  ui: ReactElement,
  { path, route, as = 'admin' }: { path: string; route: string; as?: 'admin' | 'analyst' },
) {
  signInAs(as);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={route} element={ui} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

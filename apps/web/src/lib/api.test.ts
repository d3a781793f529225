import { endpoints } from '@studychat/contracts/web';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, setUnauthorizedHandler } from './api';
import { currentUser, getToken, setToken } from './session';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function tokenWith(payload: object): string {
  const b64 = btoa(JSON.stringify(payload)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `eyJhbGciOiJIUzI1NiJ9.${b64}.signature`;
}

afterEach(() => vi.unstubAllGlobals());

describe('api client', () => {
  it('sends the Bearer token, fills path parameters and the query, and returns the reply', async () => {
    setToken('tok-123');
    const fetchMock = vi.fn(() => Promise.resolve(jsonResponse(200, [])));
    vi.stubGlobal('fetch', fetchMock);
    await api(endpoints.admin.users, { query: { sortBy: 'email', order: 'asc' } });
    await api(endpoints.participants.get, { params: { userId: 'u 1', experimentId: 'e/2' } });
    const calls = fetchMock.mock.calls as unknown as [string, RequestInit][];
    expect(calls[0]?.[0]).toBe('/api/admin/users?sortBy=email&order=asc');
    expect(calls[1]?.[0]).toBe('/api/participants/u%201/e%2F2');
    expect((calls[0]?.[1].headers as Record<string, string>).authorization).toBe('Bearer tok-123');
  });

  it('sends JSON bodies on writes', async () => {
    const fetchMock = vi.fn(() => Promise.resolve(jsonResponse(200, { ok: true })));
    vi.stubGlobal('fetch', fetchMock);
    await api(endpoints.auth.logout, {});
    const [, init] = (fetchMock.mock.calls as unknown as [string, RequestInit][])[0] ?? [];
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{}');
    expect((init?.headers as Record<string, string>)['content-type']).toBe('application/json');
  });

  it("throws the server's error text and code", async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(jsonResponse(409, { error: 'Already there', code: 'CONFLICT' })));
    await expect(api(endpoints.auth.logout, {})).rejects.toMatchObject({
      message: 'Already there',
      status: 409,
      code: 'CONFLICT',
    });
  });

  it('reports an unreachable server as a network error', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    const error = await api(endpoints.auth.logout, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, code: 'NETWORK' });
  });

  it('drops the token and redirects on a 401 while a token exists', async () => {
    const redirect = vi.fn();
    setUnauthorizedHandler(redirect);
    setToken('expired');
    vi.stubGlobal('fetch', () =>
      Promise.resolve(jsonResponse(401, { error: 'Your session has ended.', code: 'UNAUTHENTICATED' })),
    );
    await expect(api(endpoints.admin.system, {})).rejects.toBeInstanceOf(ApiError);
    expect(getToken()).toBeNull();
    expect(redirect).toHaveBeenCalledTimes(1);
  });

  it('does not redirect on a 401 from the login call itself', async () => {
    const redirect = vi.fn();
    setUnauthorizedHandler(redirect);
    vi.stubGlobal('fetch', () =>
      Promise.resolve(jsonResponse(401, { error: 'Invalid email or password', code: 'INVALID_CREDENTIALS' })),
    );
    await expect(api(endpoints.auth.login, { body: { email: 'a@b.co', password: 'x' } })).rejects.toMatchObject({
      message: 'Invalid email or password',
    });
    expect(redirect).not.toHaveBeenCalled();
  });
});

describe('currentUser', () => {
  it('reads userId, email and isAdmin from the token payload, and the role (derived for older tokens)', () => {
    setToken(tokenWith({ userId: 'u1', email: 'a@b.co', isAdmin: true, exp: 1 }));
    expect(currentUser()).toEqual({ userId: 'u1', email: 'a@b.co', isAdmin: true, role: 'admin' });
    setToken(tokenWith({ userId: 'u2', email: 'c@d.co', isAdmin: false, role: 'analyst', exp: 1 }));
    expect(currentUser()).toMatchObject({ isAdmin: false, role: 'analyst' });
    setToken(tokenWith({ userId: 'u3', email: 'e@f.co', isAdmin: false, role: 'admin', exp: 1 }));
    expect(currentUser()).toMatchObject({ isAdmin: false, role: 'participant' });
  });

  it('returns null for a missing or malformed token', () => {
    expect(currentUser()).toBeNull();
    setToken('not-a-token');
    expect(currentUser()).toBeNull();
    setToken(tokenWith({ userId: 'u1' }));
    expect(currentUser()).toBeNull();
  });
});

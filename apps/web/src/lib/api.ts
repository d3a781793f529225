import {
  buildPath,
  type Endpoint,
  type ErrorCode,
  type ErrorReply,
  type RouteBodyInput,
  type RouteDef,
  type RouteParamsInput,
  type RouteQueryInput,
  type RouteReply,
} from '@studychat/contracts/web';
import { clearToken, getToken } from './session';

/** What some errors add: the participant's step (STEP_OUT_OF_ORDER), the seconds left (SECTION_TOO_EARLY). */
export type ApiErrorDetails = Pick<ErrorReply, 'step' | 'remainingSeconds' | 'issues'>;

/** An API failure: `message` is the server's `error` text when it sent one. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: ErrorCode | 'NETWORK' | 'UNKNOWN',
    readonly details: ApiErrorDetails = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Part<K extends string, T> = [T] extends [undefined] ? { [P in K]?: undefined } : { [P in K]: T };
export type RequestInput<R> = Part<'params', RouteParamsInput<R>> &
  Part<'query', RouteQueryInput<R>> &
  Part<'body', RouteBodyInput<R>> & {
    signal?: AbortSignal;
    /**
     * A 401 is the caller's to handle (it is thrown, the token stays, the browser stays): for a page that asks
     * whether a stored login still works, such as the study landing.
     */
    ownUnauthorized?: boolean;
  };

let onUnauthorized: () => void = () => window.location.assign('/login');

/** Where the app goes after a 401 dropped the token (the router sets this to a client-side navigation). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

export function buildUrl(route: { path: string }, params?: object, query?: object): string {
  const path = buildPath(route.path, params as Record<string, string> | undefined);
  if (!query) return path;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== null) search.set(key, String(value));
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

export function authHeaders(): Record<string, string> {
  const token = getToken();
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** A 401 on any call while a token exists drops the token and goes to /login (spec section 4). */
export function handleUnauthorized(status: number, url: string): void {
  if (status === 401 && getToken() !== null && !url.startsWith('/api/auth/login')) {
    clearToken();
    onUnauthorized();
  }
}

export async function errorFromResponse(res: Response): Promise<ApiError> {
  let message = `Request failed (${res.status})`;
  let code: ApiError['code'] = 'UNKNOWN';
  const details: ApiErrorDetails = {};
  try {
    const body = (await res.json()) as {
      error?: unknown;
      code?: unknown;
      step?: unknown;
      remainingSeconds?: unknown;
      issues?: unknown;
    };
    if (typeof body.error === 'string' && body.error) message = body.error;
    if (typeof body.code === 'string') code = body.code as ErrorCode;
    if (typeof body.step === 'string') details.step = body.step as ErrorReply['step'];
    if (typeof body.remainingSeconds === 'number') details.remainingSeconds = body.remainingSeconds;
    if (Array.isArray(body.issues)) details.issues = body.issues as NonNullable<ErrorReply['issues']>;
  } catch {
    // Not JSON: keep the generic message.
  }
  return new ApiError(message, res.status, code, details);
}

/**
 * Sends a request to a contract endpoint with the Bearer token. Resolves to the 2xx response; throws
 * ApiError for an error status (after the 401 handling) or an unreachable server, and lets an abort
 * through as the usual AbortError.
 */
export async function sendRequest<R extends RouteDef>(
  route: Endpoint<R>,
  input: RequestInput<R>,
  accept: string,
): Promise<Response> {
  const url = buildUrl(route, input.params as object | undefined, input.query as object | undefined);
  const headers: Record<string, string> = { accept, ...authHeaders() };
  let body: string | undefined;
  if (route.method !== 'GET') {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(input.body ?? {});
  }
  let res: Response;
  try {
    res = await fetch(url, { method: route.method, headers, body, signal: input.signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    if (input.signal?.aborted) throw error;
    throw new ApiError('Could not reach the server. Please check your connection and try again.', 0, 'NETWORK');
  }
  if (!res.ok) {
    if (!input.ownUnauthorized) handleUnauthorized(res.status, url);
    throw await errorFromResponse(res);
  }
  return res;
}

/** Calls one contract endpoint with the Bearer token; resolves to its typed reply or throws ApiError. */
export async function api<R extends RouteDef>(route: Endpoint<R>, input: RequestInput<R>): Promise<RouteReply<R>> {
  const res = await sendRequest(route, input, 'application/json');
  return (await res.json()) as RouteReply<R>;
}

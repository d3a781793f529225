import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One API route, written once: the server registers it (validation and serialisation come from
 * these schemas) and the web client infers its request and reply types from the same object.
 */
export interface RouteDef<
  M extends HttpMethod = HttpMethod,
  P extends string = string,
  Params extends z.ZodType | undefined = z.ZodType | undefined,
  Query extends z.ZodType | undefined = z.ZodType | undefined,
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Reply extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: M;
  /** Fastify-style path, e.g. `/api/participants/:userId/:experimentId`. */
  path: P;
  params?: Params;
  query?: Query;
  body?: Body;
  /** Schema of the 2xx reply; undefined for routes answered with an event stream or a file. */
  reply?: Reply;
  /** Status of a successful reply (default 200). */
  status?: number;
}

/** Marks the objects `defineRoute` made (not enumerable, so it never shows in comparisons or copies). */
const ROUTE_BRAND = Symbol.for('studychat.route');

export function defineRoute<
  const M extends HttpMethod,
  const P extends string,
  Params extends z.ZodType | undefined = undefined,
  Query extends z.ZodType | undefined = undefined,
  Body extends z.ZodType | undefined = undefined,
  Reply extends z.ZodType | undefined = undefined,
>(def: RouteDef<M, P, Params, Query, Body, Reply>): RouteDef<M, P, Params, Query, Body, Reply> {
  return Object.defineProperty(def, ROUTE_BRAND, { value: true, enumerable: false });
}

/** True for a route object made by `defineRoute` (not for the web's `endpoints`, which carry no schemas). */
export function isRouteDef(value: unknown): value is RouteDef {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, ROUTE_BRAND);
}

/**
 * Every route object in a module's exports, found in its route groups (such as `authRoutes`), named
 * `group.key`. Tests that must cover every route (text rules, fuzzing, the authorisation matrix) start
 * from this, so a route added later is covered without anyone listing it.
 */
export function collectRoutes(moduleExports: Record<string, unknown>): { name: string; def: RouteDef }[] {
  const found: { name: string; def: RouteDef }[] = [];
  for (const [group, value] of Object.entries(moduleExports)) {
    if (typeof value !== 'object' || value === null || isRouteDef(value)) continue;
    for (const [key, def] of Object.entries(value)) {
      if (isRouteDef(def)) found.push({ name: `${group}.${key}`, def });
    }
  }
  return found;
}

type InferOr<T, Else> = T extends z.ZodType ? z.infer<T> : Else;

export type RouteParams<R> = R extends RouteDef<HttpMethod, string, infer P> ? InferOr<P, undefined> : never;
export type RouteQuery<R> =
  R extends RouteDef<HttpMethod, string, z.ZodType | undefined, infer Q> ? InferOr<Q, undefined> : never;
export type RouteBody<R> =
  R extends RouteDef<HttpMethod, string, z.ZodType | undefined, z.ZodType | undefined, infer B>
    ? InferOr<B, undefined>
    : never;
export type RouteReply<R> =
  R extends RouteDef<HttpMethod, string, z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined, infer Rep>
    ? InferOr<Rep, void>
    : never;

/** Fills `:name` segments of a route path. */
export function buildPath(path: string, params?: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

/** What a caller sends (before defaults and transforms), as opposed to what the server receives. */
export type RouteParamsInput<R> =
  R extends RouteDef<HttpMethod, string, infer P> ? (P extends z.ZodType ? z.input<P> : undefined) : never;
export type RouteQueryInput<R> =
  R extends RouteDef<HttpMethod, string, z.ZodType | undefined, infer Q>
    ? Q extends z.ZodType
      ? z.input<Q>
      : undefined
    : never;
export type RouteBodyInput<R> =
  R extends RouteDef<HttpMethod, string, z.ZodType | undefined, z.ZodType | undefined, infer B>
    ? B extends z.ZodType
      ? z.input<B>
      : undefined
    : never;

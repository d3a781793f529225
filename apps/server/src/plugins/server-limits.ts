import type { ServerOptions } from 'node:http';
import type { HttpLimits } from '../config.js';

/**
 * Node's HTTP server limits against slow and idle clients (docs/decisions/0019-timeouts-and-connections.md):
 * headers and the whole request must arrive in time (Node answers 408 and closes), idle keep-alive and
 * silent connections are closed. Node checks the request deadlines every `connectionsCheckingInterval`, so
 * a request is cut at most that much after its deadline: with the defaults a trickling body is cut within
 * 25 s. The connection ceiling is set on `app.server.maxConnections` (app.ts).
 */
export function serverLimits(limits: HttpLimits): {
  requestTimeout: number;
  keepAliveTimeout: number;
  connectionTimeout: number;
  http: ServerOptions;
} {
  return {
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionTimeout: limits.idleTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: Math.max(100, Math.min(5_000, Math.floor(limits.requestTimeoutMs / 4))),
    },
  };
}

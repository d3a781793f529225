import type { EventEmitter } from 'node:events';
import type { Shutdown } from './shutdown.js';

/** The part of the app's (pino) logger used here. */
export interface ProcessLog {
  error(fields: Record<string, unknown>, message: string): void;
  fatal(fields: Record<string, unknown>, message: string): void;
}

/**
 * What a server process (the single one, or each cluster worker) does with an error nobody handled
 * (docs/decisions/0072):
 * - a promise rejection nobody handled is logged and the process carries on. Fastify awaits every
 *   request's work, so such a rejection comes from work in the background (a timer, a save) whose failure
 *   is already over; Node's default, ending the process, would cut every participant's chat stream for it.
 * - an exception nobody caught is logged, then the process stops as on SIGTERM (requests in flight get the
 *   grace period) and exits with 1: after a throw nobody caught, the process's state is not known to be
 *   sound. The cluster's primary starts a new worker; a single process is restarted by its service manager
 *   (compose: `restart: unless-stopped`).
 * The primary itself keeps Node's defaults: it runs no request and touches no database after start.
 */
export function handleProcessErrors(
  log: ProcessLog,
  shutdown: Shutdown,
  target: Pick<EventEmitter, 'on'> = process,
): void {
  target.on('unhandledRejection', (reason) => {
    log.error({ err: reason }, 'a promise was rejected and nothing handled it; carrying on');
  });
  target.on('uncaughtException', (error) => {
    log.fatal({ err: error }, 'an exception nothing caught; stopping this process');
    shutdown('uncaught exception', 1);
  });
}

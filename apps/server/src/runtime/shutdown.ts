/** How long a server process waits for requests in flight (a streaming chat reply) before it stops anyway. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** Stops the process gracefully once: `stop` runs, then the process exits with `exitCode` (1 if stopping failed). */
export type Shutdown = (reason: string, exitCode?: number) => void;

/**
 * Calls `stop` once on SIGTERM or SIGINT (and, in a cluster worker, when the primary goes away), then exits
 * with 0, or 1 if stopping failed or took longer than the grace period. Returns the same shutdown for other
 * reasons to stop (runtime/process-errors.ts).
 */
export function exitOnSignals(stop: (reason: string) => Promise<void>): Shutdown {
  let stopping = false;
  const handle: Shutdown = (reason, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS);
    force.unref();
    stop(reason)
      .then(() => process.exit(exitCode))
      .catch((error: unknown) => {
        console.error(error);
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => handle('SIGTERM'));
  process.on('SIGINT', () => handle('SIGINT'));
  // A worker whose primary died (even by SIGKILL) loses its IPC channel: stop rather than linger.
  process.on('disconnect', () => handle('primary gone'));
  return handle;
}

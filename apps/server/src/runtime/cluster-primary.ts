import cluster, { type Worker } from 'node:cluster';
import type { AppConfig } from '../config.js';
import { describeDatabase } from './load.js';
import { SHUTDOWN_GRACE_MS } from './shutdown.js';

/** Exits within this window count as "recent" for the restart delay. */
const RESTART_WINDOW_MS = 60_000;
/** The longest a replacement waits, however often workers exit. */
export const MAX_RESTART_DELAY_MS = 30_000;

/**
 * How long the primary waits before replacing a worker, given the exits within the last minute (this one
 * included): the first at once, then 1 s, 2 s, 4 s ... up to 30 s. It never gives up on workers that have
 * served (docs/decisions/0072): whatever made them exit (a database outage, a bug on one request), a
 * worker started a little later may well serve, and a primary that stopped would leave the service down.
 */
export function restartDelayMs(recentExits: number): number {
  if (recentExits <= 1) return 0;
  return Math.min(MAX_RESTART_DELAY_MS, 1000 * 2 ** (recentExits - 2));
}

/**
 * The cluster's primary (WORKERS > 1): forks the workers (each runs `entryFile`), which share the listening
 * port (node:cluster hands connections out in turn); replaces a worker that dies (later each time when they
 * keep dying: restartDelayMs), but stops if the first workers fail before any has served; on SIGTERM/SIGINT asks
 * every worker to finish its requests and exits once all have stopped. Migrations and the first admin have
 * already run in this process (prepareDatabase), so workers only serve.
 */
export function runPrimary(config: AppConfig, entryFile: string): void {
  cluster.setupPrimary({ exec: entryFile });
  const alive = new Map<number, Worker>();
  const listening = new Set<number>();
  const exits: number[] = [];
  const pendingForks = new Set<NodeJS.Timeout>();
  let served = false;
  let announced = false;
  let stopping = false;
  let exitCode = 0;

  const fork = () => {
    const worker = cluster.fork();
    alive.set(worker.id, worker);
  };

  const stopAll = (reason: string, code: number) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    for (const timer of pendingForks) clearTimeout(timer);
    pendingForks.clear();
    console.log(`Stopping ${alive.size} workers (${reason})...`);
    for (const worker of alive.values()) worker.process.kill('SIGTERM');
    if (alive.size === 0) process.exit(exitCode);
    // Workers give requests in flight SHUTDOWN_GRACE_MS; anything still alive after that is killed.
    const force = setTimeout(() => {
      for (const worker of alive.values()) worker.process.kill('SIGKILL');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS + 2_000);
    force.unref();
  };

  cluster.on('listening', (worker, address) => {
    listening.add(worker.id);
    served = true;
    if (!announced && listening.size === config.workers) {
      announced = true;
      const host = address.address ?? config.host;
      console.log(
        `StudyChat listening on http://${host}:${address.port} (${describeDatabase(config)}, ${config.workers} workers${config.webDistDir ? '' : ', API only'})`,
      );
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    alive.delete(worker.id);
    listening.delete(worker.id);
    if (stopping) {
      if (code !== 0) exitCode = 1;
      if (alive.size === 0) process.exit(exitCode);
      return;
    }
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (!served) {
      // No worker has served yet: a replacement would fail the same way (a wrong setting, a broken build).
      console.error(`A worker failed to start (${how}); stopping.`);
      stopAll('a worker failed to start', 1);
      return;
    }
    const now = Date.now();
    exits.push(now);
    while ((exits[0] ?? now) < now - RESTART_WINDOW_MS) exits.shift();
    const delay = restartDelayMs(exits.length);
    if (delay === 0) {
      console.error(`A worker exited unexpectedly (${how}); starting a replacement.`);
      fork();
      return;
    }
    console.error(
      `A worker exited unexpectedly (${how}), ${exits.length} exits in a minute; starting a replacement in ${delay / 1000} s.`,
    );
    const timer = setTimeout(() => {
      pendingForks.delete(timer);
      if (!stopping) fork();
    }, delay);
    pendingForks.add(timer);
  });

  process.on('SIGTERM', () => stopAll('SIGTERM', 0));
  process.on('SIGINT', () => stopAll('SIGINT', 0));

  for (let i = 0; i < config.workers; i++) fork();
}

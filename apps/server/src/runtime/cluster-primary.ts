import cluster, { type Worker } from 'node:cluster';
import type { AppConfig } from '../config.js';
import { describeDatabase } from './load.js';
import { SHUTDOWN_GRACE_MS } from './shutdown.js';

/** A worker that keeps dying is not restarted for ever: more exits than this within a minute stop the server. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;

/**
 * The cluster's primary (WORKERS > 1): forks the workers (each runs `entryFile`), which share the listening
 * port (node:cluster hands connections out in turn); replaces a worker that dies; on SIGTERM/SIGINT asks
 * every worker to finish its requests and exits once all have stopped. Migrations and the first admin have
 * already run in this process (prepareDatabase), so workers only serve.
 */
export function runPrimary(config: AppConfig, entryFile: string): void {
  cluster.setupPrimary({ exec: entryFile });
  const alive = new Map<number, Worker>();
  const listening = new Set<number>();
  const restarts: number[] = [];
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
    const served = listening.delete(worker.id);
    if (stopping) {
      if (code !== 0) exitCode = 1;
      if (alive.size === 0) process.exit(exitCode);
      return;
    }
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (!served) {
      // It never served: a replacement would fail the same way (port taken, database unreachable).
      console.error(`A worker failed to start (${how}); stopping.`);
      stopAll('a worker failed to start', 1);
      return;
    }
    const now = Date.now();
    restarts.push(now);
    while ((restarts[0] ?? now) < now - RESTART_WINDOW_MS) restarts.shift();
    if (restarts.length > MAX_RESTARTS) {
      console.error(`Workers keep exiting (${restarts.length} in a minute, the last with ${how}); stopping.`);
      stopAll('workers keep exiting', 1);
      return;
    }
    console.error(`A worker exited unexpectedly (${how}); starting a replacement.`);
    fork();
  });

  process.on('SIGTERM', () => stopAll('SIGTERM', 0));
  process.on('SIGINT', () => stopAll('SIGINT', 0));

  for (let i = 0; i < config.workers; i++) fork();
}

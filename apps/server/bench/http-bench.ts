import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface HttpFigure {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

/**
 * Starts a bench server script in its own process and reads the JSON line it prints: a TypeScript file in
 * bench/ through tsx, or an absolute path to a built `.js` file with plain node.
 */
export async function startServer<T>(script: string): Promise<{ child: ChildProcess; info: T }> {
  const command = script.endsWith('.js') ? [script] : ['--import', 'tsx', path.join(here, script)];
  const child = spawn(process.execPath, command, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const stdout = child.stdout;
  if (!stdout) throw new Error('no stdout');
  const lines = createInterface({ input: stdout });
  const info = await new Promise<T>((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line) as T));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { child, info };
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Load from a second process's point of view: autocannon with the given connections for a fixed time. */
export async function load(
  name: string,
  url: string,
  options: { connections?: number; seconds?: number; headers?: Record<string, string> } = {},
): Promise<HttpFigure> {
  const result = await autocannon({
    url,
    connections: options.connections ?? 200,
    duration: options.seconds ?? 5,
    headers: options.headers ?? {},
  });
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_TARGETS, freshness } from './build-targets.js';

// `npm start`: builds what is missing or older than its sources (web app, server bundle), then runs the
// production server, apps/server/dist/main.js, exactly as the Docker image does (CMD). Settings come from
// the environment and the repository's .env (see docs/operating.md, Configuration). Signals are passed on, so Ctrl-C
// or a service manager's SIGTERM stops the server (and its workers) gracefully.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

for (const target of BUILD_TARGETS) {
  const state = freshness(root, target);
  if (!state.stale) {
    console.log(`The ${target.name} is up to date.`);
    continue;
  }
  console.log(`Building the ${target.name} (${state.reason})...`);
  const build = spawnSync('npm', ['run', 'build', '-w', target.workspace], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error(`Building the ${target.name} failed.`);
    process.exit(build.status ?? 1);
  }
}

const server = spawn(process.execPath, ['--enable-source-maps', path.join(root, 'apps/server/dist/main.js')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'production' },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

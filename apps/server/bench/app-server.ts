import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { buildConfig, parseEnv } from '../src/config.js';
import { createDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { defaultDeps } from '../src/default-deps.js';
import { createUser } from '../src/modules/users/users.service.js';

// The real app on a temporary SQLite database, for `npm run bench`. Prints the port and tokens for an
// admin and a participant, created through the real login route.
const dataDir = mkdtempSync(path.join(tmpdir(), 'studychat-bench-'));
const config = buildConfig(parseEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'production' }));
const database = createDatabase({ databaseUrl: undefined, sqliteFile: config.sqliteFile });
await migrateToLatest(database.db);
const deps = defaultDeps(database);
const app = await buildApp({ ...config, webDistDir: undefined }, deps);
await app.listen({ port: 0, host: '127.0.0.1' });

async function login(email: string, isAdmin: boolean): Promise<{ id: string; token: string }> {
  const password = 'bench-password-123';
  const { id } = await createUser(deps, { email, password, isAdmin });
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  return { id, token: (res.json() as { token: string }).token };
}

const admin = await login('admin@bench.test', true);
const participant = await login('participant@bench.test', false);

// A participant who joined an experiment and consented, so the status read finds a real assignment.
const experiment = await app.inject({
  method: 'POST',
  url: '/api/experiments',
  headers: { authorization: `Bearer ${admin.token}` },
  payload: { name: 'Bench study' },
});
const experimentId = (experiment.json() as { id: string }).id;
const participantHeaders = { authorization: `Bearer ${participant.token}` };
await app.inject({
  method: 'POST',
  url: '/api/participants',
  headers: participantHeaders,
  payload: { user_id: participant.id, experiment_id: experimentId, prolific_pid: 'BENCH1' },
});
await app.inject({
  method: 'POST',
  url: '/api/participants/consent',
  headers: participantHeaders,
  payload: { experimentId },
});
const address = app.server.address();
const port = address && typeof address === 'object' ? address.port : 0;
process.stdout.write(JSON.stringify({ port, admin, participant, experimentId }) + '\n');
process.on('SIGTERM', () => {
  void app.close().then(() => database.close().then(() => process.exit(0)));
});

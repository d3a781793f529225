import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import type { AppConfig } from '../config.js';
import type { Database } from '../db/database.js';
import type { AppDeps } from '../lib/deps.js';
import { defaultDeps } from '../default-deps.js';
import { createOffsetClock } from '../lib/test-clock.js';
import { createChatModel, createOtherChatModels } from '../llm/create-chat-model.js';
import { SCRIPTED_MODEL_WARNING } from './prepare.js';
import { handleProcessErrors } from './process-errors.js';
import { exitOnSignals } from './shutdown.js';

/**
 * Builds the app on an open (already migrated) database and listens; SIGTERM/SIGINT close the listener,
 * let requests in flight finish, then close the database; errors nobody handled follow
 * runtime/process-errors.ts. Used by the single process and by each worker.
 */
export async function serve(config: AppConfig, database: Database): Promise<{ app: FastifyInstance; address: string }> {
  let deps: AppDeps = {
    ...defaultDeps(database, createChatModel(config.llm)),
    providers: createOtherChatModels(config.llm),
  };
  if (config.testClock) {
    // Browser tests only (config.ts allows TEST_CLOCK with NODE_ENV=test and one process): docs/decisions/0011.
    const clockControl = createOffsetClock();
    deps = { ...deps, clock: clockControl.clock, clockControl };
    console.warn('TEST_CLOCK=manual: the browser tests may move this server clock (NODE_ENV=test only).');
  }
  const app = await buildApp(config, deps);
  if (config.llm.provider === 'scripted') app.log.warn(SCRIPTED_MODEL_WARNING);
  const shutdown = exitOnSignals(async (reason) => {
    app.log.warn({ reason }, 'shutting down');
    await app.close();
    await database.close();
  });
  handleProcessErrors(app.log, shutdown);
  const address = await app.listen({ port: config.port, host: config.host });
  return { app, address };
}

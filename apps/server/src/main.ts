import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.js';
import { buildConfig, ConfigError, parseEnv } from './config.js';
import { createDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrator.js';
import { defaultDeps } from './lib/deps.js';
import { createChatModel } from './llm/create-chat-model.js';
import { checkModel, createCheckModel } from './llm/model-check.js';
import { bootstrapAdmin } from './modules/users/users.service.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const WEB_DIST = path.resolve(here, '../../web/dist');
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  let config;
  try {
    config = buildConfig(parseEnv(process.env), WEB_DIST);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const database = createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile });
  await migrateToLatest(database.db);
  const deps = defaultDeps(database, createChatModel(config.llm));

  const bootstrap = await bootstrapAdmin(deps, {
    email: config.adminEmail,
    password: config.adminPassword,
    dataDir: config.dataDir,
  });
  if (bootstrap.created && bootstrap.generatedPassword) {
    // Printed once, on purpose: this is the only way to learn the generated password besides the 0600 file.
    console.log(
      `\nCreated admin account ${bootstrap.email}\n  password: ${bootstrap.generatedPassword}\n  (also saved to ${bootstrap.passwordFile}, readable only by you)\n`,
    );
  } else if (bootstrap.created) {
    console.log(`Created admin account ${bootstrap.email} from ADMIN_EMAIL/ADMIN_PASSWORD`);
  }

  const app = await buildApp(config, deps);
  if (config.llm.provider === 'scripted') {
    const warning =
      'LLM_PROVIDER=scripted: NO REAL AI MODEL IS CONNECTED. The chat answers with the scripted offline model. Do not run a live study like this.';
    app.log.warn(warning);
    console.warn(`\n*** ${warning} ***\n`);
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.warn({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS);
    force.unref();
    app
      .close()
      .then(() => database.close())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        console.error(error);
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  const address = await app.listen({ port: config.port, host: config.host });
  const db = database.dialect === 'postgres' ? 'PostgreSQL' : `SQLite at ${config.sqliteFile}`;
  console.log(`StudyChat listening on ${address} (${db}${config.webDistDir ? '' : ', API only'})`);

  // A wrong key, model name or an empty account should show now, not when a participant chats. Not awaited:
  // the server is already serving while the model answers.
  if (config.llm.provider !== 'scripted') {
    const llm = config.llm;
    void checkModel(createCheckModel(llm), llm).then((result) => {
      if (result.ok) return;
      app.log.warn({ problem: result.problem }, `AI model check failed: ${result.message}`);
      console.warn(
        `\n*** The AI model check failed: ${result.message} ***\n(Run npm run model:check after fixing it.)\n`,
      );
    });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

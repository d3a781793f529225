import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildConfig, ConfigError, parseEnv, type AppConfig } from '../config.js';
import { createDatabase, type Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrator.js';

/** Config and a migrated database for command-line scripts, from the same environment as the server. */
export async function openForCli(): Promise<{ config: AppConfig; database: Database }> {
  let config: AppConfig;
  try {
    const here = path.dirname(fileURLToPath(import.meta.url));
    config = buildConfig(parseEnv(process.env), path.resolve(here, '../../../web/dist'));
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const database = createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile });
  await migrateToLatest(database.db);
  return { config, database };
}

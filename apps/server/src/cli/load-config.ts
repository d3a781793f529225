import type { AppConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrator.js';
import { loadConfigOrExit, openDatabase } from '../runtime/load.js';

/**
 * Config and a migrated database for command-line scripts, from the same settings as `npm start`: the
 * environment over the repository's `.env`, with relative paths resolved from the repository root.
 */
export async function openForCli(): Promise<{ config: AppConfig; database: Database }> {
  const config = loadConfigOrExit();
  const database = openDatabase(config);
  await migrateToLatest(database.db);
  return { config, database };
}

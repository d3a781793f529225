import { buildConfig, ConfigError, parseEnv, type AppConfig } from '../config.js';
import { createDatabase, type Database } from '../db/database.js';
import { loadEnvFile } from '../env-file.js';

/**
 * The configuration every command uses: the repository's `.env` (or ENV_FILE) under the real environment,
 * validated; a wrong value prints every problem and exits with status 1.
 */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): AppConfig {
  try {
    loadEnvFile(env);
    return buildConfig(parseEnv(env));
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** The configured database (SQLite file, or PostgreSQL with this process's share of connections). */
export function openDatabase(config: AppConfig): Database {
  return createDatabase({
    databaseUrl: config.databaseUrl,
    sqliteFile: config.sqliteFile,
    pgPoolSize: config.databasePoolSize,
  });
}

/** One line naming the database, for start-up messages. */
export function describeDatabase(config: AppConfig): string {
  return config.databaseUrl ? 'PostgreSQL' : `SQLite at ${config.sqliteFile}`;
}

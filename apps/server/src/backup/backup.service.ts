import type { AppConfig } from '../config.js';
import { backupFileName, inDir } from './files.js';
import { backupPostgres, restorePostgres } from './postgres.js';
import { backupSqlite, restoreSqlite, sqliteInUse } from './sqlite.js';

type DatabaseSettings = Pick<AppConfig, 'databaseUrl' | 'sqliteFile' | 'backupDir'>;

/**
 * Backs up the configured database into BACKUP_DIR (default DATA_DIR/backups) and returns the file:
 * SQLite with its online backup API (the server may keep running), PostgreSQL with pg_dump.
 */
export async function backupDatabase(config: DatabaseSettings, now: Date, label = ''): Promise<string> {
  if (config.databaseUrl) {
    return backupPostgres(config.databaseUrl, inDir(config.backupDir, backupFileName(now, 'dump', label)));
  }
  return backupSqlite(config.sqliteFile, inDir(config.backupDir, backupFileName(now, 'sqlite', label)));
}

export interface RestoreResult {
  /** A backup of what the database held just before, so the restore can be undone. */
  previous: string | undefined;
}

/**
 * Replaces the configured database with a backup made by backupDatabase. Stop the server first: SQLite
 * refuses while its files show the database is open (unless `force`). What the database held before is
 * kept as a backup of its own (`previous`).
 */
export async function restoreDatabase(
  config: DatabaseSettings,
  file: string,
  now: Date,
  options: { force?: boolean } = {},
): Promise<RestoreResult> {
  if (config.databaseUrl) {
    const previous = await backupDatabase(config, now, 'before-restore');
    await restorePostgres(file, config.databaseUrl);
    return { previous };
  }
  if (sqliteInUse(config.sqliteFile) && !options.force) {
    throw new Error(
      `${config.sqliteFile} is open (its -wal/-shm files exist): stop the server first. If it is not running (it crashed), add --force.`,
    );
  }
  const keepAs = inDir(config.backupDir, backupFileName(now, 'sqlite', 'before-restore'));
  const { kept } = restoreSqlite(file, config.sqliteFile, keepAs);
  return { previous: kept };
}

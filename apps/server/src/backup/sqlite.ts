import { copyFileSync, existsSync, renameSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { ownerOnly } from './files.js';

/** Tables a StudyChat database always has: a file without them is not one of our backups. */
const REQUIRED_TABLES = ['kysely_migration', 'users', 'experiments', 'assignments', 'chat_messages'];

/**
 * Online backup with SQLite's backup API (better-sqlite3 `.backup()`): a consistent copy even while the
 * server is writing, without stopping it.
 */
export async function backupSqlite(sqliteFile: string, destination: string): Promise<string> {
  if (!existsSync(sqliteFile)) throw new Error(`No database at ${sqliteFile}: nothing to back up.`);
  const source = new BetterSqlite3(sqliteFile, { fileMustExist: true });
  try {
    await source.backup(destination);
  } finally {
    source.close();
  }
  return ownerOnly(destination);
}

/** Opens a file read-only as SQLite, or throws saying it is not a SQLite database. */
function openReadOnly(file: string): BetterSqlite3.Database {
  let db: BetterSqlite3.Database | undefined;
  try {
    db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
    db.pragma('schema_version'); // the first read is where a non-SQLite file is noticed
    return db;
  } catch (error) {
    db?.close();
    throw new Error(`${file} is not a SQLite database (${error instanceof Error ? error.message : String(error)}).`);
  }
}

/** Throws unless `file` is an intact SQLite database with StudyChat's tables. */
export function verifySqliteBackup(file: string): void {
  if (!existsSync(file)) throw new Error(`No backup at ${file}.`);
  const db = openReadOnly(file);
  try {
    const check: unknown = db.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new Error(`${file} is damaged (integrity check: ${String(check)}).`);
    const rows = db.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[];
    const tables = new Set(rows.map((r) => r.name));
    const missing = REQUIRED_TABLES.filter((t) => !tables.has(t));
    if (missing.length > 0) throw new Error(`${file} is not a StudyChat backup (no ${missing.join(', ')} table).`);
  } finally {
    db.close();
  }
}

/** True while a process has the database open in WAL mode (its -wal/-shm files exist until it closes). */
export function sqliteInUse(sqliteFile: string): boolean {
  return existsSync(`${sqliteFile}-wal`) || existsSync(`${sqliteFile}-shm`);
}

/**
 * Replaces the database file with the backup. The current file is kept beside it as `keepAs` (when it
 * exists), so a restore can itself be undone. The server must be stopped (see sqliteInUse).
 */
export function restoreSqlite(backup: string, sqliteFile: string, keepAs: string): { kept: string | undefined } {
  verifySqliteBackup(backup);
  let kept: string | undefined;
  if (existsSync(sqliteFile)) {
    renameSync(sqliteFile, keepAs);
    kept = keepAs;
  }
  copyFileSync(backup, sqliteFile);
  ownerOnly(sqliteFile);
  return { kept };
}

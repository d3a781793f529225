import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';

/** `studychat-20261122-221500.sqlite`: sorts by time, UTC, no characters a shell or Windows dislikes. */
export function backupFileName(now: Date, extension: 'sqlite' | 'dump', label = ''): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d{3}Z$/, '')
    .replace(/[-:]/g, '')
    .replace('T', '-');
  return `studychat-${stamp}${label ? `-${label}` : ''}.${extension}`;
}

/** The backup folder, created readable only by its owner (backups hold password hashes and all answers). */
export function ensureBackupDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** Makes a finished backup file readable only by its owner. */
export function ownerOnly(file: string): string {
  chmodSync(file, 0o600);
  return file;
}

export function inDir(dir: string, name: string): string {
  return path.join(ensureBackupDir(dir), name);
}

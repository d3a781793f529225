import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { EXPORT_FILES, type ExportFile } from '@studychat/contracts';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { AppConfig } from '../config.js';
import { createDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrator.js';
import { builtInStudy, noFlows } from '../lib/deps.js';
import { createStudyScriptedModel } from '../llm/create-chat-model.js';
import { createAndLogin, TestClock, testConfig, type TestApp, type TestUser } from '../../test/app.js';
import { TEST_DIALECTS, type TestDialect } from '../../test/databases.js';
import { at, insertExperimentRow, seedParticipant, type ParticipantSpec } from '../../test/factories.js';
import { backupDatabase, restoreDatabase } from './backup.service.js';
import { backupFileName } from './files.js';

const run = promisify(execFile);
const serverDir = path.resolve(import.meta.dirname, '../..');

// Text that breaks naive copies: quotes, newlines, emoji, formula-like cells, tabs.
const CHAT: NonNullable<ParticipantSpec['chat']> = [
  { role: 'assistant', content: 'Welcome, parent! Ask me anything about the visit.' },
  { role: 'user', content: 'Is it "safe"?\nTwo lines, one comma, emoji 😀 ünïcödé' },
  { role: 'assistant', content: '=HYPERLINK("http://x.example","y") and\ttabs', overrides: { cost_usd: 0.0125 } },
  { role: 'user', content: '+1 @SUM(A1:A2) -2' },
];

/** A database that lives in its own file (SQLite) or its own PostgreSQL database, as a deployment's does. */
async function deploymentSettings(dialect: TestDialect): Promise<{
  config: AppConfig;
  drop: () => Promise<void>;
}> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'studychat-backup-'));
  const base = testConfig({
    dataDir,
    backupDir: path.join(dataDir, 'backups'),
    sqliteFile: path.join(dataDir, 'studychat.sqlite'),
  });
  if (dialect === 'sqlite') return { config: base, drop: () => Promise.resolve() };
  const serverUrl = process.env.TEST_DATABASE_URL ?? '';
  const name = `studychat_backup_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    config: { ...base, databaseUrl: url.toString() },
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

async function openApp(config: AppConfig, dialect: TestDialect): Promise<TestApp> {
  const database = createDatabase({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile, pgPoolSize: 4 });
  await migrateToLatest(database.db);
  const clock = new TestClock();
  const deps = {
    database,
    clock: clock.fn,
    newId: randomUUID,
    random: Math.random,
    llm: createStudyScriptedModel(),
    studies: builtInStudy,
    flows: noFlows,
  };
  const app = await buildApp(config, deps);
  return { app, database, deps, clock, dialect };
}

async function closeApp(t: TestApp): Promise<void> {
  await t.app.close();
  await t.database.close();
}

/** The four CSV exports, downloaded through the app as a researcher would, byte for byte. */
async function exportAll(t: TestApp, admin: TestUser, experimentId: string): Promise<Record<ExportFile, Buffer>> {
  const files = {} as Record<ExportFile, Buffer>;
  for (const file of EXPORT_FILES) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/experiments/${experimentId}/export/${file}`,
      headers: admin.headers,
    });
    if (res.statusCode !== 200) throw new Error(`export ${file}: ${res.statusCode} ${res.body}`);
    files[file] = res.rawPayload;
  }
  return files;
}

async function seedStudy(t: TestApp): Promise<{ admin: TestUser; experimentId: string }> {
  const admin = await createAndLogin(t, { isAdmin: true, email: 'admin@backup.test' });
  const experimentId = (await insertExperimentRow(t.database.db, { name: 'Backup "study", MMR' })).id;
  const db = t.database.db;
  await seedParticipant(db, experimentId, {
    user: { last_login_at: at(40) },
    assignment: {
      prolific_pid: 'PID-COMPLETE',
      study_id: 'STUDY-1',
      session_id: 'SESSION-1',
      assigned_condition: 'mmr',
      stratum: '5-6',
      condition_assigned_at: at(5),
      consent_given: true,
      consent_timestamp: at(1),
      completion_pathway: 'complete',
      completion_code: 'C-COMPLETE',
      completed_at: at(40),
    },
    entry: 'questions',
    baseline: 5,
    pre: { age: '25-34', sex: 'female', political_leaning: 'moderate' },
    post: 7,
    exposures: [{ seconds: 16.5 }, { seconds: 21 }, { seconds: 41.25 }, { seconds: 26 }],
    chat: CHAT,
  });
  await seedParticipant(db, experimentId, {
    assignment: { prolific_pid: 'PID-CONTROL', assigned_condition: 'control', stratum: '1-2', consent_given: true },
    entry: 'questions',
    baseline: 2,
    chat: CHAT.slice(0, 2),
  });
  await seedParticipant(db, experimentId, {
    assignment: { prolific_pid: 'PID-CONFIRM', completion_pathway: 'confirm', completion_code: 'C-NOQUALMS' },
    entry: 'confirm',
  });
  return { admin, experimentId };
}

const dropAfterAll: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of dropAfterAll) await drop();
});

describe.each(TEST_DIALECTS)('backup and restore on %s', (dialect) => {
  it('round-trips a study with participants and messages: exports are byte-equal before and after', async () => {
    const { config, drop } = await deploymentSettings(dialect);
    dropAfterAll.push(drop);
    let t = await openApp(config, dialect);
    const { admin, experimentId } = await seedStudy(t);
    const before = await exportAll(t, admin, experimentId);
    expect(before['messages.csv'].toString('utf8')).toContain('😀');

    const backup = await backupDatabase(config, new Date('2026-11-22T21:15:00Z'));
    expect(path.basename(backup)).toBe(
      dialect === 'sqlite' ? 'studychat-20261122-211500.sqlite' : 'studychat-20261122-211500.dump',
    );
    expect(path.dirname(backup)).toBe(config.backupDir);
    expect(statSync(backup).mode & 0o777).toBe(0o600);

    // Work after the backup: a new participant with a chat. The restore must take it away again.
    await seedParticipant(t.database.db, experimentId, {
      assignment: { prolific_pid: 'PID-LATE', assigned_condition: 'mmr' },
      chat: [{ role: 'user', content: 'written after the backup' }],
    });
    const changed = await exportAll(t, admin, experimentId);
    expect(changed['participants.csv'].equals(before['participants.csv'])).toBe(false);
    expect(changed['messages.csv'].equals(before['messages.csv'])).toBe(false);

    if (dialect === 'sqlite') {
      // While the server has the database open, a restore is refused and changes nothing.
      await expect(restoreDatabase(config, backup, new Date())).rejects.toThrow(/stop the server first/);
    }
    await closeApp(t);

    const { previous } = await restoreDatabase(config, backup, new Date('2026-11-22T21:30:00Z'));
    expect(previous && path.basename(previous)).toBe(
      dialect === 'sqlite'
        ? 'studychat-20261122-213000-before-restore.sqlite'
        : 'studychat-20261122-213000-before-restore.dump',
    );

    t = await openApp(config, dialect);
    const after = await exportAll(t, admin, experimentId);
    for (const file of EXPORT_FILES) {
      expect(after[file].toString('utf8'), file).toBe(before[file].toString('utf8'));
      expect(after[file].equals(before[file]), file).toBe(true);
    }
    // The admin's account and session came back with the data: the same token still works.
    const me = await t.app.inject({ method: 'GET', url: '/api/experiments', headers: admin.headers });
    expect(me.statusCode).toBe(200);
    await closeApp(t);
  });

  it('refuses a file that is not a backup and leaves the database as it was', async () => {
    const { config, drop } = await deploymentSettings(dialect);
    dropAfterAll.push(drop);
    let t = await openApp(config, dialect);
    const { admin, experimentId } = await seedStudy(t);
    const before = await exportAll(t, admin, experimentId);
    await closeApp(t);

    const bogus = path.join(config.dataDir, 'not-a-backup.sqlite');
    writeFileSync(bogus, 'hello, I am a text file\n');
    await expect(restoreDatabase(config, bogus, new Date())).rejects.toThrow(
      dialect === 'sqlite' ? /is not a SQLite database/ : /pg_restore failed/,
    );
    await expect(restoreDatabase(config, path.join(config.dataDir, 'missing.dump'), new Date())).rejects.toThrow();

    t = await openApp(config, dialect);
    const after = await exportAll(t, admin, experimentId);
    for (const file of EXPORT_FILES) expect(after[file].equals(before[file]), file).toBe(true);
    await closeApp(t);
  });
});

describe('backup commands', () => {
  it('npm run backup and npm run restore -- <file> --yes work from the same settings as npm start', async () => {
    const { config } = await deploymentSettings('sqlite');
    const t = await openApp(config, 'sqlite');
    const { admin, experimentId } = await seedStudy(t);
    const before = await exportAll(t, admin, experimentId);
    await closeApp(t);

    const env = { ...process.env, ENV_FILE: '/dev/null', DATA_DIR: config.dataDir, DATABASE_URL: '' };
    const command = (script: string, args: string[] = []) =>
      run(process.execPath, ['--import', 'tsx', `src/cli/${script}.ts`, ...args], { cwd: serverDir, env });

    const backedUp = await command('backup');
    const file = /Backup written: (.+)/.exec(backedUp.stdout)?.[1] ?? '';
    expect(path.dirname(file)).toBe(path.join(config.dataDir, 'backups'));
    expect(existsSync(file)).toBe(true);

    await expect(command('restore', [file])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('run again with --yes'),
    });
    const restored = await command('restore', [file, '--yes']);
    expect(restored.stdout).toContain(`Restored ${file}`);
    expect(readdirSync(config.backupDir).some((f) => f.endsWith('-before-restore.sqlite'))).toBe(true);

    const again = await openApp(config, 'sqlite');
    const after = await exportAll(again, admin, experimentId);
    for (const file of EXPORT_FILES) expect(after[file].equals(before[file]), file).toBe(true);
    await closeApp(again);
  });

  it('names backups by UTC time, sortable, with an optional label', () => {
    const now = new Date('2026-01-02T03:04:05.678Z');
    expect(backupFileName(now, 'sqlite')).toBe('studychat-20260102-030405.sqlite');
    expect(backupFileName(now, 'dump', 'before-restore')).toBe('studychat-20260102-030405-before-restore.dump');
  });
});

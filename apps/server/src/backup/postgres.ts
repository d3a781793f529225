import { spawn } from 'node:child_process';
import pg from 'pg';
import { ownerOnly } from './files.js';

/**
 * pg_dump and pg_restore take the connection as a URL; the password goes through PGPASSWORD instead, so it
 * never shows in the process list.
 */
export function pgToolConnection(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), env: password ? { ...process.env, PGPASSWORD: password } : { ...process.env } };
}

/** Runs a PostgreSQL client tool; rejects with its error output, or with install advice when it is missing. */
function runTool(tool: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new Error(
              `${tool} not found. Install PostgreSQL's client tools (Debian/Ubuntu: apt-get install postgresql-client, the same major version as the server), or with Docker Compose run it in the database container (docs/operating.md, Backups).`,
            )
          : error,
      );
    });
    child.on('close', (code) => {
      if (code === 0) resolve(output);
      else reject(new Error(`${tool} failed (exit code ${code}):\n${output.trim()}`));
    });
  });
}

/** `pg_dump --format=custom`: one compressed file holding schema and data, restored with pg_restore. */
export async function backupPostgres(databaseUrl: string, destination: string): Promise<string> {
  const { url, env } = pgToolConnection(databaseUrl);
  await runTool('pg_dump', ['--format=custom', `--file=${destination}`, `--dbname=${url}`], env);
  return ownerOnly(destination);
}

/** Throws unless `file` is a pg_dump archive pg_restore can read. */
export async function verifyPostgresBackup(file: string): Promise<void> {
  await runTool('pg_restore', ['--list', file], process.env);
}

/**
 * Replaces the contents of the database's current schema with the backup: the schema is emptied (tables a
 * later migration added must go too), then pg_restore loads the archive in one transaction, stopping at the
 * first error. Ownership and grants are not restored, so the backup loads as whichever user connects.
 */
export async function restorePostgres(backup: string, databaseUrl: string): Promise<void> {
  await verifyPostgresBackup(backup);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ schema: string }>('select current_schema() as schema');
    const schema = rows[0]?.schema ?? 'public';
    const quoted = client.escapeIdentifier(schema);
    await client.query(`drop schema if exists ${quoted} cascade`);
    // pg_dump never writes CREATE SCHEMA for public (initdb makes it); any other schema comes from the dump.
    if (schema === 'public') await client.query('create schema public');
  } finally {
    await client.end();
  }
  const { url, env } = pgToolConnection(databaseUrl);
  await runTool(
    'pg_restore',
    ['--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', `--dbname=${url}`, backup],
    env,
  );
}

import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createDatabase, type Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';

export type TestDialect = 'sqlite' | 'postgres';

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (DESIGN.md convention 7). */
export const TEST_DIALECTS: TestDialect[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

const schemas: string[] = [];

/**
 * A fresh, migrated database: in-memory SQLite, or a new schema of its own on the test PostgreSQL
 * server (so test files can run in parallel). Call `dropTestSchemas` after all tests. `migrate: false`
 * leaves it empty (for tests of what happens before migrations).
 */
export async function createTestDatabase(dialect: TestDialect, options: { migrate?: boolean } = {}): Promise<Database> {
  const migrate = options.migrate ?? true;
  if (dialect === 'sqlite') {
    const database = createDatabase({ sqliteFile: ':memory:' });
    if (migrate) await migrateToLatest(database.db);
    return database;
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  schemas.push(schema);
  const database = createDatabase({ databaseUrl: url, sqliteFile: '', pgSchema: schema, pgPoolSize: 4 });
  if (migrate) await migrateToLatest(database.db, { schema });
  return database;
}

export async function dropTestSchemas(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url || schemas.length === 0) return;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  for (const schema of schemas.splice(0)) await admin.query(`drop schema if exists ${schema} cascade`);
  await admin.end();
}

/**
 * Two or more connections (pools) to ONE new migrated PostgreSQL schema: what several server processes
 * sharing a database see. Dropped by `dropTestSchemas`.
 */
export async function createSharedPgDatabases(count: number): Promise<Database[]> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const first = await createTestDatabase('postgres');
  const schema = schemas[schemas.length - 1];
  const rest = Array.from({ length: count - 1 }, () =>
    createDatabase({ databaseUrl: url, sqliteFile: '', pgSchema: schema, pgPoolSize: 4 }),
  );
  return [first, ...rest];
}

import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { createDatabase } from '../src/db/database.js';
import { createTestApp, testConfig, type TestApp } from './app.js';
import type { TestDialect } from './databases.js';

/**
 * Two app instances on one database: on PostgreSQL each has its own pool, as two server processes
 * would; SQLite allows one server process, so its two instances share the process's database handle.
 */
export async function twoInstances(
  dialect: TestDialect,
): Promise<{ a: TestApp; b: TestApp; close: () => Promise<void> }> {
  const a = await createTestApp(dialect);
  if (dialect === 'sqlite') {
    const app = await buildApp(testConfig(), a.deps);
    await app.ready();
    const b = { ...a, app };
    return {
      a,
      b,
      close: async () => {
        await app.close();
        await a.app.close();
        await a.database.close();
      },
    };
  }
  const url = process.env.TEST_DATABASE_URL ?? '';
  const database = createDatabase({
    databaseUrl: url,
    sqliteFile: '',
    pgSchema: await currentSchema(a),
    pgPoolSize: 2,
  });
  const deps = { ...a.deps, database };
  const app = await buildApp(testConfig(), deps);
  await app.ready();
  const b = { ...a, app, database, deps };
  return {
    a,
    b,
    close: async () => {
      await app.close();
      await database.close();
      await a.app.close();
      await a.database.close();
    },
  };
}

async function currentSchema(t: TestApp): Promise<string> {
  const row = await sql<{ schema: string }>`select current_schema() as schema`.execute(t.database.db);
  return row.rows[0]?.schema ?? 'public';
}

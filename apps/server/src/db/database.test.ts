import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestSchemas, TEST_DIALECTS } from '../../test/databases.js';
import { createDatabase } from './database.js';
import { MAX_NAMED_PARAMETERS, MAX_NAMED_PER_CONNECTION } from './pg-prepared.js';
import { migrateToLatest } from './migrator.js';

afterAll(dropTestSchemas);

describe('SQLite database', () => {
  it('binds booleans as 0/1 and reads them back', async () => {
    const database = createDatabase({ sqliteFile: ':memory:' });
    await migrateToLatest(database.db);
    const now = new Date().toISOString();
    await database.db
      .insertInto('users')
      .values({
        id: 'u1',
        email: 'a@b.co',
        password_hash: 'x',
        is_admin: true,
        metadata: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const admins = await database.db.selectFrom('users').select('id').where('is_admin', '=', true).execute();
    expect(admins).toEqual([{ id: 'u1' }]);
    await database.close();
  });

  it('reuses prepared statements: the same query shape with new parameters, streams, and after a schema change', async () => {
    const database = createDatabase({ sqliteFile: ':memory:' });
    await migrateToLatest(database.db);
    const now = new Date().toISOString();
    for (let i = 0; i < 5; i++) {
      await database.db
        .insertInto('experiments')
        .values({ id: `e${i}`, name: `n${i}`, description: null, created_at: now, updated_at: now })
        .execute();
    }
    const byName = (name: string) => database.db.selectFrom('experiments').select('id').where('name', '=', name);
    expect(await byName('n1').execute()).toEqual([{ id: 'e1' }]);
    expect(await byName('n3').execute()).toEqual([{ id: 'e3' }]);
    const all = () => database.db.selectFrom('experiments').select('id').orderBy('id');
    const streamed: string[] = [];
    for await (const row of all().stream()) {
      streamed.push(row.id);
      if (streamed.length === 2) break;
    }
    expect(streamed).toEqual(['e0', 'e1']);
    expect(await all().execute()).toHaveLength(5);
    // A schema change after caching: SQLite re-prepares the cached statement by itself.
    await sql`alter table experiments add column extra text`.execute(database.db);
    expect(await database.db.selectFrom('experiments').selectAll().where('name', '=', 'n2').execute()).toMatchObject([
      { id: 'e2', extra: null },
    ]);
    await database.close();
  });
});

describe.each(TEST_DIALECTS.filter((d) => d === 'postgres'))('PostgreSQL named statements (%s)', (dialect) => {
  it('runs a query shape as a named prepared statement, with new parameters each time', async () => {
    const database = await createTestDatabase(dialect);
    const now = new Date().toISOString();
    for (let i = 0; i < 3; i++) {
      await database.db
        .insertInto('experiments')
        .values({ id: `e${i}`, name: `n${i}`, description: null, created_at: now, updated_at: now })
        .execute();
    }
    const byName = (name: string) => database.db.selectFrom('experiments').select('id').where('name', '=', name);
    expect(await byName('n1').execute()).toEqual([{ id: 'e1' }]);
    expect(await byName('n2').execute()).toEqual([{ id: 'e2' }]);
    const prepared = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
      database.db,
    );
    // Every pooled connection that ran it holds it once, under its name.
    expect(prepared.rows.some((r) => r.statement.includes('from "experiments" where "name" = $1'))).toBe(true);
    await database.close();
  });

  it('a schema change starts fresh statements: a changed table is read with its new columns', async () => {
    const database = await createTestDatabase(dialect);
    const now = new Date().toISOString();
    await database.db
      .insertInto('experiments')
      .values({ id: 'e1', name: 'n1', description: null, created_at: now, updated_at: now })
      .execute();
    const all = () => database.db.selectFrom('experiments').selectAll().where('id', '=', 'e1').execute();
    // Named on every pooled connection it may meet.
    await Promise.all([all(), all(), all(), all()]);
    await sql`alter table experiments add column extra text`.execute(database.db);
    for (const rows of await Promise.all([all(), all(), all(), all()]))
      expect(rows).toMatchObject([{ id: 'e1', extra: null }]);
    await database.close();
  });

  it('runs a statement with many parameters (a list) unnamed, so it is planned for its own values', async () => {
    const database = await createTestDatabase(dialect);
    const named = await database.db.connection().execute(async (connection) => {
      const ids = (n: number) => Array.from({ length: n }, (_, i) => `id-${i}`);
      for (let run = 0; run < 6; run++) {
        await connection
          .selectFrom('experiments')
          .select('id')
          .where('id', 'in', ids(MAX_NAMED_PARAMETERS + 1))
          .execute();
        await connection
          .selectFrom('experiments')
          .select('name')
          .where('id', 'in', ids(MAX_NAMED_PARAMETERS))
          .execute();
      }
      const prepared = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
        connection,
      );
      return prepared.rows.map((r) => r.statement);
    });
    // The same connection ran both six times: only the one within the limit was named.
    const last = (n: number) => `$${n})`;
    expect(named.some((s) => s.startsWith('select "name"') && s.includes(last(MAX_NAMED_PARAMETERS)))).toBe(true);
    expect(named.some((s) => s.includes(last(MAX_NAMED_PARAMETERS + 1)))).toBe(false);
    await database.close();
  });

  it('runs more query shapes than a connection names, the rest unnamed', async () => {
    const database = await createTestDatabase(dialect);
    for (let i = 0; i < MAX_NAMED_PER_CONNECTION + 5; i++) {
      const rows = await sql<{ n: number }>`select ${sql.lit(i)}::int as n where ${1} = 1`.execute(database.db);
      expect(rows.rows).toEqual([{ n: i }]);
    }
    await database.close();
  });
});

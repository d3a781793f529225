import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDatabase } from './database.js';
import { migrateToLatest } from './migrator.js';

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

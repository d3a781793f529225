import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestSchemas, TEST_DIALECTS } from '../../test/databases.js';
import { hotRead } from './hot-read.js';

afterAll(dropTestSchemas);

describe.each(TEST_DIALECTS)('hotRead (%s)', (dialect) => {
  it('builds a statement once and runs it with each call’s parameters, bound in any order', async () => {
    const database = await createTestDatabase(dialect);
    const { db } = database;
    const now = new Date().toISOString();
    for (const id of ['e1', 'e2'])
      await db
        .insertInto('experiments')
        .values({ id, name: `name ${id}`, created_at: now, updated_at: now })
        .execute();
    let builds = 0;
    const read = hotRead('test-experiment', ['id', 'name'], (b, p) => {
      builds += 1;
      // The name bound before the id, and the id twice: each value still lands in its place.
      return b
        .selectFrom('experiments')
        .select('id')
        .where('name', '=', p.name)
        .where('id', '=', p.id)
        .where((eb) => eb.or([eb('id', '=', p.id), eb('name', '=', p.id)]))
        .compile();
    });
    const ids = async (id: string, name: string) => (await read(db, { id, name })).map((r) => r.id);
    expect(await ids('e1', 'name e1')).toEqual(['e1']);
    expect(await ids('e2', 'name e2')).toEqual(['e2']);
    expect(await ids('e2', 'name e1')).toEqual([]);
    expect(builds).toBe(1);
    await database.close();
  });

  it('refuses a statement that inlines a value or binds something other than its stand-ins', async () => {
    const database = await createTestDatabase(dialect, { migrate: false });
    const { db } = database;
    const inlined = hotRead('test-inlined', ['i'], (b, p) =>
      sql<{ id: string }>`select ${sql.lit(p.i)} as id`.compile(b),
    );
    await expect(inlined(db, { i: 'x' })).rejects.toThrow(/named stand-in/);
    const constant = hotRead('test-constant', ['i'], (b, p) =>
      sql<{ a: string }>`select ${p.i} as a, ${'k'} as b`.compile(b),
    );
    await expect(constant(db, { i: 'x' })).rejects.toThrow(/named stand-in/);
    await database.close();
  });
});

import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestSchemas, TEST_DIALECTS } from '../../test/databases.js';
import { compiledOnce } from './compiled-once.js';

afterAll(dropTestSchemas);

describe.each(TEST_DIALECTS)('compiledOnce (%s)', (dialect) => {
  it('builds a statement once and runs it with each call’s parameters', async () => {
    const database = await createTestDatabase(dialect);
    const { db } = database;
    const now = new Date().toISOString();
    for (const id of ['e1', 'e2'])
      await db
        .insertInto('experiments')
        .values({ id, name: `name ${id}`, created_at: now, updated_at: now })
        .execute();
    let builds = 0;
    const byName = async (id: string, name: string) => {
      const { rows } = await db.executeQuery(
        compiledOnce(
          db,
          `test-${dialect}-experiment`,
          (i, n) => {
            builds += 1;
            return db.selectFrom('experiments').select('id').where('id', '=', i).where('name', '=', n).compile();
          },
          [id, name],
        ),
      );
      return rows.map((r) => r.id);
    };
    expect(await byName('e1', 'name e1')).toEqual(['e1']);
    expect(await byName('e2', 'name e2')).toEqual(['e2']);
    expect(await byName('e2', 'name e1')).toEqual([]);
    expect(builds).toBe(1);
    await database.close();
  });

  it('refuses a statement that inlines a value or binds its parameters out of order', async () => {
    // Refused when built, before anything runs: no tables needed.
    const database = await createTestDatabase(dialect, { migrate: false });
    const { db } = database;
    expect(() =>
      compiledOnce(db, `test-${dialect}-inlined`, (i) => sql`select ${sql.lit(i)} as id`.compile(db), ['x']),
    ).toThrow(/bound once, in order/);
    expect(() =>
      compiledOnce(db, `test-${dialect}-reordered`, (a, b) => sql`select ${b} as b, ${a} as a`.compile(db), ['x', 'y']),
    ).toThrow(/bound once, in order/);
    expect(() =>
      compiledOnce(db, `test-${dialect}-twice`, (a) => sql`select ${a} as a, ${a} as b`.compile(db), ['x']),
    ).toThrow(/bound once, in order/);
    await database.close();
  });
});

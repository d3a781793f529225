import { CompiledQuery } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestSchemas, TEST_DIALECTS } from '../../test/databases.js';
import { asOneStatement, atomicWrites } from './atomic-writes.js';

afterAll(dropTestSchemas);

describe('asOneStatement', () => {
  it('names the members w0, w1, ... and numbers each one’s parameters after the ones before', () => {
    const statement = asOneStatement(
      [
        CompiledQuery.raw('update a set x = $1 where id = $2 returning id', ['x', 1]),
        CompiledQuery.raw('insert into b (p, q, r) values ($1, $2, $3)', ['p', 'q', 'r']),
        CompiledQuery.raw('delete from c where id = $1 and n > $10', ['c', 10]),
      ],
      'select * from w0',
    );
    expect(statement.sql).toBe(
      'with w0 as (update a set x = $1 where id = $2 returning id), ' +
        'w1 as (insert into b (p, q, r) values ($3, $4, $5)), ' +
        'w2 as (delete from c where id = $6 and n > $15) select * from w0',
    );
    expect(statement.parameters).toEqual(['x', 1, 'p', 'q', 'r', 'c', 10]);
  });
});

describe.each(TEST_DIALECTS)('atomicWrites (%s)', (dialect) => {
  it('runs every write, and keeps none of them when one fails', async () => {
    const database = await createTestDatabase(dialect);
    const { db } = database;
    const now = new Date().toISOString();
    const insert = (id: string) =>
      db.insertInto('experiments').values({ id, name: id, created_at: now, updated_at: now }).returning('id').compile();
    const first = await atomicWrites<{ id: string }>(db, [insert('x1'), insert('x2')]);
    expect(first).toEqual([{ id: 'x1' }]);
    const ids = async () => (await db.selectFrom('experiments').select('id').orderBy('id').execute()).map((r) => r.id);
    expect(await ids()).toEqual(['x1', 'x2']);
    // The second write repeats a key: the whole fails and the first write's row is not kept.
    await expect(atomicWrites(db, [insert('x3'), insert('x1')])).rejects.toThrow();
    expect(await ids()).toEqual(['x1', 'x2']);
    await database.close();
  });
});

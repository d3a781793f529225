import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestSchemas, TEST_DIALECTS } from '../../test/databases.js';

afterAll(dropTestSchemas);

describe.each(TEST_DIALECTS)('query counter (%s)', (dialect) => {
  it('counts every statement sent, transaction control included', async () => {
    const database = await createTestDatabase(dialect);
    const start = database.queries.count;
    await database.db.selectFrom('experiments').select('id').execute();
    expect(database.queries.count - start).toBe(1);

    await database.db.transaction().execute(async (trx) => {
      await trx.selectFrom('experiments').select('id').execute();
      await trx.selectFrom('users').select('id').execute();
    });
    // begin, two reads, commit
    expect(database.queries.count - start).toBe(5);

    await expect(
      database.db.transaction().execute(async (trx) => {
        await trx.selectFrom('experiments').select('id').execute();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    // begin, one read, rollback
    expect(database.queries.count - start).toBe(8);

    // The connections went back to the pool: a further query still runs.
    await database.db.selectFrom('experiments').select('id').execute();
    expect(database.queries.count - start).toBe(9);
    if (dialect === 'sqlite') {
      // Streams (the SQLite exports) count once.
      for await (const row of database.db.selectFrom('experiments').select('id').stream()) expect(row).toBeDefined();
      expect(database.queries.count - start).toBe(10);
    }
    await database.close();
  });
});

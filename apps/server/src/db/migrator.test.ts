import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestSchemas, TEST_DIALECTS } from '../../test/databases.js';
import { migrations } from './migrations/index.js';
import { migrateToLatest, pendingMigrations } from './migrator.js';

afterAll(() => dropTestSchemas());

describe.each(TEST_DIALECTS)('pending migrations on %s', (dialect) => {
  it('lists every migration before the first run, none after, and one whose record is missing', async () => {
    const database = await createTestDatabase(dialect, { migrate: false });
    const all = Object.keys(migrations);
    expect(await pendingMigrations(database.db)).toEqual(all);
    await migrateToLatest(database.db);
    expect(await pendingMigrations(database.db)).toEqual([]);
    const last = all[all.length - 1] ?? '';
    await sql`delete from kysely_migration where name = ${last}`.execute(database.db);
    expect(await pendingMigrations(database.db)).toEqual([last]);
    await database.close();
  });
});

import { Migrator, PostgresAdapter, sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { at } from '../../../test/factories.js';
import { createTestDatabase, dropTestSchemas, TEST_DIALECTS } from '../../../test/databases.js';
import { migrations } from './index.js';

// Completion codes move from three experiments columns into their own table (docs/decisions/0046): every
// set code is copied to its pathway, unset ones leave no row, the columns are gone; down puts them back.

type AnyDb = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const BEFORE = '2026-11-24-14-study-versions';
const THIS = '2026-11-25-14b-completion-codes';

describe.each(TEST_DIALECTS)('completion codes migration on %s', (dialect) => {
  afterAll(dropTestSchemas);

  it('copies each set code to its pathway, drops the columns, and down restores them', async () => {
    const database = await createTestDatabase(dialect, { migrate: false });
    const db = database.db as unknown as AnyDb;
    try {
      const schema =
        db.getExecutor().adapter instanceof PostgresAdapter
          ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s
          : undefined;
      const migrator = new Migrator({
        db,
        provider: { getMigrations: () => Promise.resolve(migrations) },
        allowUnorderedMigrations: true,
        ...(schema ? { migrationTableSchema: schema } : {}),
      });
      expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
      const experiment = (id: string, codes: [string | null, string | null, string | null]) => ({
        id,
        name: id,
        description: null,
        code_complete: codes[0],
        code_exitnoqualms: codes[1],
        code_exitceiling: codes[2],
        created_at: at(0),
        updated_at: at(0),
      });
      await db
        .insertInto('experiments')
        .values([
          experiment('e-all', ['A1', 'A2', 'A3']),
          experiment('e-some', ['B1', null, 'B3']),
          experiment('e-none', [null, null, null]),
        ])
        .execute();

      expect((await migrator.migrateTo(THIS)).error).toBeUndefined();
      const rows = await db
        .selectFrom('completion_codes')
        .select(['experiment_id', 'pathway', 'code'])
        .orderBy('experiment_id')
        .orderBy('code')
        .execute();
      expect(rows).toEqual([
        { experiment_id: 'e-all', pathway: 'complete', code: 'A1' },
        { experiment_id: 'e-all', pathway: 'confirm', code: 'A2' },
        { experiment_id: 'e-all', pathway: 'ceiling', code: 'A3' },
        { experiment_id: 'e-some', pathway: 'complete', code: 'B1' },
        { experiment_id: 'e-some', pathway: 'ceiling', code: 'B3' },
      ]);
      const columns = Object.keys((await db.selectFrom('experiments').selectAll().executeTakeFirstOrThrow()) as object);
      expect(columns.filter((c) => c.startsWith('code_'))).toEqual([]);
      // One code per experiment and pathway; only the three pathways.
      await expect(
        db.insertInto('completion_codes').values({ experiment_id: 'e-all', pathway: 'complete', code: 'X' }).execute(),
      ).rejects.toThrow();
      await expect(
        db.insertInto('completion_codes').values({ experiment_id: 'e-none', pathway: 'other', code: 'X' }).execute(),
      ).rejects.toThrow();

      expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
      const restored = await db
        .selectFrom('experiments')
        .select(['id', 'code_complete', 'code_exitnoqualms', 'code_exitceiling'])
        .orderBy('id')
        .execute();
      expect(restored).toEqual([
        { id: 'e-all', code_complete: 'A1', code_exitnoqualms: 'A2', code_exitceiling: 'A3' },
        { id: 'e-none', code_complete: null, code_exitnoqualms: null, code_exitceiling: null },
        { id: 'e-some', code_complete: 'B1', code_exitnoqualms: null, code_exitceiling: 'B3' },
      ]);
    } finally {
      await database.close();
    }
  });
});

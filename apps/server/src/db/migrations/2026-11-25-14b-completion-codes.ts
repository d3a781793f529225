import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never change once released (DESIGN.md convention 8).
// Completion codes move from three columns of `experiments` into a table of their own (issue 14,
// docs/decisions/0046): one row per experiment and pathway (complete, confirm, ceiling; the spec's code
// keys complete, exitnoqualms, exitceiling are the API's names for them). The set codes are copied, then the
// three columns are dropped so that nothing can read a stale copy. `down` copies them back.

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Pathway and the experiments column that held its code (frozen here, not imported). */
const COLUMNS = [
  ['complete', 'code_complete'],
  ['confirm', 'code_exitnoqualms'],
  ['ceiling', 'code_exitceiling'],
] as const;

export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('completion_codes')
    .addColumn('experiment_id', 'varchar(36)', (c) => c.notNull().references('experiments.id').onDelete('cascade'))
    .addColumn('pathway', 'varchar(20)', (c) => c.notNull())
    .addColumn('code', 'varchar(100)', (c) => c.notNull())
    .addPrimaryKeyConstraint('completion_codes_pk', ['experiment_id', 'pathway'])
    .addCheckConstraint('completion_codes_pathway_check', sql`pathway in ('complete', 'confirm', 'ceiling')`)
    .execute();
  for (const [pathway, column] of COLUMNS) {
    await sql`insert into completion_codes (experiment_id, pathway, code)
      select id, ${pathway}, ${sql.ref(column)} from experiments where ${sql.ref(column)} is not null`.execute(db);
  }
  for (const [, column] of COLUMNS) await db.schema.alterTable('experiments').dropColumn(column).execute();
}

export async function down(db: Db): Promise<void> {
  for (const [pathway, column] of COLUMNS) {
    await db.schema.alterTable('experiments').addColumn(column, 'varchar(100)').execute();
    await sql`update experiments set ${sql.ref(column)} = (select code from completion_codes c
      where c.experiment_id = experiments.id and c.pathway = ${pathway})`.execute(db);
  }
  await db.schema.dropTable('completion_codes').execute();
}

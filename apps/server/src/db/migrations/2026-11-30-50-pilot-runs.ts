import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never change once released (DESIGN.md convention 8).
// Pilot runs (issue 35, docs/decisions/0085): simulated participants walk an experiment's pinned study before
// launch; each run keeps who started it, its size and seed, and its report as JSON text. The pilot participants
// themselves are test runs (assignments.is_test), like previews.

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function up(db: Db): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  await db.schema
    .createTable('pilot_runs')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('experiment_id', 'varchar(36)', (c) => c.notNull().references('experiments.id').onDelete('cascade'))
    .addColumn('created_by', 'varchar(36)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('participants', 'integer', (c) => c.notNull())
    .addColumn('target_sample', 'integer', (c) => c.notNull())
    .addColumn('seed', 'integer', (c) => c.notNull())
    .addColumn('report', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('finished_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pilot_runs_experiment')
    .on('pilot_runs')
    .columns(['experiment_id', 'created_at'])
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('pilot_runs').execute();
}

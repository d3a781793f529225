import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never change once released (DESIGN.md convention 8).
// Launching an experiment on Prolific (issue 33, docs/decisions/0090-prolific-launch.md): one row per experiment,
// claimed before Prolific is called (so two launches at once make one study), with the draft study's id, its
// study URL, how many logins went into its credentials pool, and when it was published.

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function up(db: Db): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  await db.schema
    .createTable('prolific_launches')
    .addColumn('experiment_id', 'varchar(36)', (c) => c.primaryKey().references('experiments.id').onDelete('cascade'))
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('study_id', 'varchar(64)')
    .addColumn('study_url', 'text')
    .addColumn('credentials', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('launched_by', 'varchar(36)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('launched_at', ts)
    .addColumn('published_at', ts)
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('prolific_launches').execute();
}

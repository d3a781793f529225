import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never change once released (DESIGN.md convention 8).
// Follow-up waves (issue 33, docs/decisions/0091-follow-up-waves.md): an experiment may follow another (its wave 1),
// and a Prolific participant group made from an experiment's completers is remembered per experiment.

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function up(db: Db): Promise<void> {
  const ts = db.getExecutor().adapter instanceof PostgresAdapter ? sql`timestamptz` : sql`text`;
  await db.schema
    .createTable('experiment_waves')
    .addColumn('experiment_id', 'varchar(36)', (c) => c.primaryKey().references('experiments.id').onDelete('cascade'))
    .addColumn('follows_experiment_id', 'varchar(36)', (c) =>
      c.notNull().references('experiments.id').onDelete('cascade'),
    )
    .addColumn('set_by', 'varchar(36)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('set_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('experiment_waves_follows_idx')
    .on('experiment_waves')
    .column('follows_experiment_id')
    .execute();
  await db.schema
    .createTable('prolific_participant_groups')
    .addColumn('experiment_id', 'varchar(36)', (c) => c.primaryKey().references('experiments.id').onDelete('cascade'))
    .addColumn('group_id', 'varchar(64)')
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('workspace_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('participants', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('prolific_participant_groups').ifExists().execute();
  await db.schema.dropTable('experiment_waves').ifExists().execute();
}

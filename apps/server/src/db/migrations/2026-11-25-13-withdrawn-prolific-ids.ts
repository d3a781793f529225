import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time (DESIGN.md convention 8). Issue 13, docs/decisions/0026: a withdrawn Prolific id cannot
// start the experiment again. The withdrawal deletes the participant's rows and the Prolific id claim; this
// table keeps only a SHA-256 of the experiment and the id (not the id itself), enough to refuse it later.

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function up(db: Db): Promise<void> {
  const ts = db.getExecutor().adapter instanceof PostgresAdapter ? sql`timestamptz` : sql`text`;
  await db.schema
    .createTable('withdrawn_prolific_ids')
    .addColumn('experiment_id', 'varchar(36)', (c) => c.notNull().references('experiments.id').onDelete('cascade'))
    .addColumn('pid_sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('withdrawn_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('withdrawn_prolific_ids_pk', ['experiment_id', 'pid_sha256'])
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('withdrawn_prolific_ids').ifExists().execute();
}

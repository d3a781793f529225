import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never change once released (DESIGN.md convention 8).
// Joining by Prolific's study link alone (issue 33, docs/decisions/0086-prolific-link-join.md): per experiment,
// whether a participant may start or resume with PROLIFIC_PID, STUDY_ID and SESSION_ID and no study login.
// No row means off: the spec's login flow stays the default.

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function up(db: Db): Promise<void> {
  const ts = db.getExecutor().adapter instanceof PostgresAdapter ? sql`timestamptz` : sql`text`;
  await db.schema
    .createTable('prolific_link_join')
    .addColumn('experiment_id', 'varchar(36)', (c) => c.primaryKey().references('experiments.id').onDelete('cascade'))
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addColumn('updated_by', 'varchar(36)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('prolific_link_join').ifExists().execute();
}

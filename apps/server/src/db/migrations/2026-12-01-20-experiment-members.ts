import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never change once released (DESIGN.md convention 8).
// Members of an experiment (issue 34, docs/decisions/0087): owner, editor or viewer. An experiment with no
// member row is lab-wide (every staff account acts by its account role, as before this migration); the
// experiments that exist when it runs get none, so nothing that was visible disappears on upgrade. An
// experiment created afterwards has its creator as owner and is members-only.

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function up(db: Db): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  await db.schema
    .createTable('experiment_members')
    .addColumn('experiment_id', 'varchar(36)', (c) => c.notNull().references('experiments.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'varchar(16)', (c) => c.notNull().check(sql`role in ('owner', 'editor', 'viewer')`))
    .addColumn('added_by', 'varchar(36)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('experiment_members_pk', ['experiment_id', 'user_id'])
    .execute();
  await db.schema.createIndex('experiment_members_user').on('experiment_members').column('user_id').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('experiment_members').execute();
}

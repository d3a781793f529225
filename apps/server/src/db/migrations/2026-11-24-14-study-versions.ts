import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never change once released (DESIGN.md convention 8).
// Study versions (issue 14, docs/decisions/0025): a study definition as data (JSON text), one row per
// version. Each experiment pins one; assignments, section records and chat messages are stamped with the
// version they ran under. The built-in default version is written by the server at start (not here, so
// this file never has to import a study). Rows from before this migration keep a null stamp: they ran the
// built-in study. `assignments.is_test` marks the runs of "preview as participant".

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function up(db: Db): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  const bool = pg ? sql`boolean` : sql`integer`;
  const no = pg ? sql`false` : 0;

  await db.schema
    .createTable('study_versions')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('label', 'varchar(200)', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'varchar(36)', (c) => c.references('study_versions.id').onDelete('set null'))
    .addColumn('is_default', bool, (c) => c.notNull().defaultTo(no))
    .addColumn('created_by', 'varchar(36)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  const stamp = (table: string) =>
    db.schema
      .alterTable(table)
      .addColumn('study_version_id', 'varchar(36)', (c) => c.references('study_versions.id'))
      .execute();
  await stamp('experiments');
  await stamp('assignments');
  await stamp('section_views');
  await stamp('chat_messages');
  await db.schema
    .alterTable('assignments')
    .addColumn('is_test', bool, (c) => c.notNull().defaultTo(no))
    .execute();
  await db.schema.createIndex('experiments_study_version_idx').on('experiments').column('study_version_id').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropIndex('experiments_study_version_idx').execute();
  await db.schema.alterTable('assignments').dropColumn('is_test').execute();
  for (const table of ['chat_messages', 'section_views', 'assignments', 'experiments']) {
    await db.schema.alterTable(table).dropColumn('study_version_id').execute();
  }
  await db.schema.dropTable('study_versions').execute();
}

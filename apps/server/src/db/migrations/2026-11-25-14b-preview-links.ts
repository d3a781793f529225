import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never change once released (DESIGN.md convention 8).
// One-time links of "preview as participant" (issue 14, docs/decisions/0045): the SHA-256 of the token
// (the token itself is never stored), the test participant it signs in, who made it, when it expires and
// when it was used (set once: a link works a single time).

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function up(db: Db): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  await db.schema
    .createTable('preview_links')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('experiment_id', 'varchar(36)', (c) => c.notNull().references('experiments.id').onDelete('cascade'))
    .addColumn('created_by', 'varchar(36)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('used_at', ts)
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('preview_links').execute();
}

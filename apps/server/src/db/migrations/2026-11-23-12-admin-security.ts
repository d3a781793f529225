import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time (DESIGN.md convention 8). Admin account security (docs/decisions/0020-admin-security.md):
// roles (participant, analyst, admin; is_admin stays true for admins), optional TOTP two-factor with
// replay protection, sessions restricted to TOTP enrolment while it is required, and the audit log.

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function up(db: Db): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  const bool = pg ? sql`boolean` : sql`integer`;

  await db.schema
    .alterTable('users')
    .addColumn('role', 'varchar(20)', (c) => c.notNull().defaultTo('participant'))
    .execute();
  await db
    .updateTable('users')
    .set({ role: 'admin' })
    .where('is_admin', '=', pg ? true : 1)
    .execute();
  // SQLite adds one column per statement.
  await db.schema.alterTable('users').addColumn('totp_secret', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_enabled_at', ts).execute();
  await db.schema.alterTable('users').addColumn('totp_last_step', 'bigint').execute();

  await db.schema
    .alterTable('sessions')
    .addColumn('restricted', bool, (c) => c.notNull().defaultTo(pg ? sql`false` : 0))
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('actor_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('actor_email', 'varchar(254)', (c) => c.notNull())
    .addColumn('action', 'varchar(60)', (c) => c.notNull())
    .addColumn('target_type', 'varchar(30)')
    .addColumn('target_id', 'varchar(36)')
    /** JSON object as text. */
    .addColumn('details', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_created_idx').on('audit_log').columns(['created_at', 'id']).execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('audit_log').ifExists().execute();
  await db.schema.alterTable('sessions').dropColumn('restricted').execute();
  for (const column of ['totp_last_step', 'totp_enabled_at', 'totp_secret', 'role']) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
}

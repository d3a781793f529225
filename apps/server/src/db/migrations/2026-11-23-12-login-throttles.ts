import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time (DESIGN.md convention 8). Login limits that hold under parallel attack and cannot be
// turned against an account's owner (docs/decisions/0017-login-limits.md): one counter row per account
// and per account+address pair, updated with compare-and-set before the password is checked, and the
// addresses each account has logged in from. Replaces login_failures (one row per failure, counted after
// the password check, which let parallel guesses through).

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function up(db: Db): Promise<void> {
  const ts = db.getExecutor().adapter instanceof PostgresAdapter ? sql`timestamptz` : sql`text`;

  await db.schema
    .createTable('login_throttles')
    .addColumn('key', 'varchar(400)', (c) => c.primaryKey())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('window_start', ts, (c) => c.notNull())
    .addColumn('blocked_until', ts)
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_throttles_updated_idx').on('login_throttles').column('updated_at').execute();

  await db.schema
    .createTable('login_known_addresses')
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('address', 'varchar(64)', (c) => c.notNull())
    .addColumn('last_login_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('login_known_addresses_pk', ['user_id', 'address'])
    .execute();

  await db.schema.dropTable('login_failures').ifExists().execute();
}

export async function down(db: Db): Promise<void> {
  const ts = db.getExecutor().adapter instanceof PostgresAdapter ? sql`timestamptz` : sql`text`;
  await db.schema.dropTable('login_known_addresses').ifExists().execute();
  await db.schema.dropTable('login_throttles').ifExists().execute();
  await db.schema
    .createTable('login_failures')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('key', 'varchar(300)', (c) => c.notNull())
    .addColumn('failed_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_failures_key_idx').on('login_failures').columns(['key', 'failed_at']).execute();
}

import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never change once released (DESIGN.md convention 8).
// An experiment's lifecycle (issue 34, docs/decisions/0077): its state (draft, open, paused, closed, archived).
// Every experiment made before this admitted participants, so each starts open. A study login can be revoked: the
// account's `disabled_at` (it can no longer log in; its sessions are ended when it is set). Quotas: the most real
// participants assigned to a condition, in one stratum or ('' here) in all of them.

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function up(db: Db): Promise<void> {
  const ts = db.getExecutor().adapter instanceof PostgresAdapter ? sql`timestamptz` : sql`text`;
  await db.schema
    .alterTable('experiments')
    .addColumn('state', 'varchar(10)', (c) => c.notNull().defaultTo('open'))
    .execute();
  await db.schema.alterTable('users').addColumn('disabled_at', ts).execute();
  await db.schema
    .createTable('experiment_quotas')
    .addColumn('experiment_id', 'varchar(36)', (c) => c.notNull().references('experiments.id').onDelete('cascade'))
    .addColumn('condition', 'varchar(64)', (c) => c.notNull())
    .addColumn('stratum', 'varchar(100)', (c) => c.notNull())
    .addColumn('max_participants', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('experiment_quotas_pkey', ['experiment_id', 'condition', 'stratum'])
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('experiment_quotas').ifExists().execute();
  await db.schema.alterTable('users').dropColumn('disabled_at').execute();
  await db.schema.alterTable('experiments').dropColumn('state').execute();
}

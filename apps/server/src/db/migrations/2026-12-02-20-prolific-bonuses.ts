import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never change once released (DESIGN.md convention 8).
// Bonuses on Prolific through our own ledger (issue 33, docs/decisions/0089-prolific-reject-and-bonuses.md): a
// batch per researcher request, keyed by the client's idempotency key (unique per experiment), with its lines (one
// per Prolific id, in integer minor units) and its state: prepared, setting_up, set_up, paying, paid, failed. The
// bulk id Prolific answered at set-up is kept, so a retry pays that one and never sets up again.

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function up(db: Db): Promise<void> {
  const ts = db.getExecutor().adapter instanceof PostgresAdapter ? sql`timestamptz` : sql`text`;
  await db.schema
    .createTable('prolific_bonus_batches')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('experiment_id', 'varchar(36)', (c) => c.notNull().references('experiments.id').onDelete('cascade'))
    .addColumn('idempotency_key', 'varchar(100)', (c) => c.notNull())
    .addColumn('source', 'varchar(16)', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('total_cents', 'integer', (c) => c.notNull())
    .addColumn('study_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('prolific_bulk_id', 'varchar(100)')
    .addColumn('prolific_fees', 'varchar(32)')
    .addColumn('prolific_total', 'varchar(32)')
    .addColumn('repeats_confirmed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('last_error', 'text')
    .addColumn('created_by', 'varchar(36)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('paid_by', 'varchar(36)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('paid_at', ts)
    .addUniqueConstraint('prolific_bonus_batches_key', ['experiment_id', 'idempotency_key'])
    .execute();
  await db.schema
    .createTable('prolific_bonus_lines')
    .addColumn('batch_id', 'varchar(36)', (c) =>
      c.notNull().references('prolific_bonus_batches.id').onDelete('cascade'),
    )
    .addColumn('prolific_pid', 'varchar(64)', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('prolific_bonus_lines_pk', ['batch_id', 'prolific_pid'])
    .execute();
  await db.schema.createIndex('prolific_bonus_lines_pid').on('prolific_bonus_lines').column('prolific_pid').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('prolific_bonus_lines').ifExists().execute();
  await db.schema.dropTable('prolific_bonus_batches').ifExists().execute();
}

import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never change once released (DESIGN.md convention 8).
// The Prolific connection (issue 33, docs/decisions/0083-prolific-api.md): the API token and the webhook
// secret, sealed like the two-factor secrets; which Prolific study an experiment runs as; each participant's
// submission status from Prolific's webhooks; the server-side completion of each submission; and the ids of
// the webhook events already handled (a replay or a retried delivery is skipped by its event id).

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function up(db: Db): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  await db.schema
    .createTable('prolific_settings')
    .addColumn('id', 'varchar(16)', (c) => c.primaryKey())
    .addColumn('api_token', 'text')
    .addColumn('webhook_secret', 'text')
    .addColumn('updated_by', 'varchar(36)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('prolific_study_links')
    .addColumn('experiment_id', 'varchar(36)', (c) => c.primaryKey().references('experiments.id').onDelete('cascade'))
    .addColumn('study_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('prolific_submissions')
    .addColumn('assignment_id', 'varchar(36)', (c) => c.primaryKey().references('assignments.id').onDelete('cascade'))
    .addColumn('submission_id', 'varchar(64)')
    .addColumn('status', 'varchar(32)', (c) => c.notNull())
    .addColumn('status_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('prolific_completions')
    .addColumn('assignment_id', 'varchar(36)', (c) => c.primaryKey().references('assignments.id').onDelete('cascade'))
    .addColumn('code', 'varchar(100)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('prolific_webhook_events')
    .addColumn('event_id', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('event_type', 'varchar(100)', (c) => c.notNull())
    .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
    .addColumn('received_at', ts, (c) => c.notNull())
    .execute();
}

export async function down(db: Db): Promise<void> {
  for (const table of [
    'prolific_webhook_events',
    'prolific_completions',
    'prolific_submissions',
    'prolific_study_links',
    'prolific_settings',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

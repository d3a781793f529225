import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never change once released (DESIGN.md convention 8).
// Portable across SQLite and PostgreSQL: timestamps are timestamptz on PostgreSQL and ISO-8601 text on
// SQLite; booleans are boolean / integer 0-1; JSON documents are text.

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Db): Promise<void> {
  const pg = isPostgres(db);
  const ts = pg ? sql`timestamptz` : sql`text`;
  const bool = pg ? sql`boolean` : sql`integer`;
  const real = pg ? sql`double precision` : sql`real`;

  await db.schema
    .createTable('users')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('is_admin', bool, (c) => c.notNull())
    .addColumn('metadata', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('last_login_at', ts)
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('revoked_at', ts)
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('login_failures')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('key', 'varchar(300)', (c) => c.notNull())
    .addColumn('failed_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_failures_key_idx').on('login_failures').columns(['key', 'failed_at']).execute();

  await db.schema
    .createTable('experiments')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('code_complete', 'varchar(100)')
    .addColumn('code_exitnoqualms', 'varchar(100)')
    .addColumn('code_exitceiling', 'varchar(100)')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('assignments')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('experiment_id', 'varchar(36)', (c) => c.notNull().references('experiments.id').onDelete('cascade'))
    .addColumn('prolific_pid', 'varchar(64)')
    .addColumn('study_id', 'varchar(64)')
    .addColumn('session_id', 'varchar(64)')
    .addColumn('assigned_condition', 'varchar(20)')
    .addColumn('stratum', 'varchar(10)')
    .addColumn('condition_assigned_at', ts)
    .addColumn('consent_given', bool, (c) => c.notNull())
    .addColumn('consent_timestamp', ts)
    .addColumn('intervention_completed_timestamp', ts)
    .addColumn('completion_pathway', 'varchar(20)')
    .addColumn('completion_code', 'varchar(100)')
    .addColumn('completed_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('assignments_user_experiment_uq', ['user_id', 'experiment_id'])
    .execute();
  await db.schema.createIndex('assignments_experiment_idx').on('assignments').column('experiment_id').execute();

  // The randomisation list: permuted blocks per experiment and stratum, each slot claimed by one assignment.
  await db.schema
    .createTable('allocation_slots')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('experiment_id', 'varchar(36)', (c) => c.notNull().references('experiments.id').onDelete('cascade'))
    .addColumn('stratum', 'varchar(10)', (c) => c.notNull())
    .addColumn('block_index', 'integer', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('condition', 'varchar(20)', (c) => c.notNull())
    .addColumn('assignment_id', 'varchar(36)', (c) => c.unique().references('assignments.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('claimed_at', ts)
    .addUniqueConstraint('allocation_slots_seq_uq', ['experiment_id', 'stratum', 'seq'])
    .execute();

  await db.schema
    .createTable('survey_responses')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('experiment_id', 'varchar(36)', (c) => c.notNull().references('experiments.id').onDelete('cascade'))
    .addColumn('prolific_pid', 'varchar(64)')
    .addColumn('survey_type', 'varchar(20)', (c) => c.notNull())
    .addColumn('responses', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addUniqueConstraint('survey_responses_once_uq', ['user_id', 'experiment_id', 'survey_type'])
    .execute();
  await db.schema
    .createIndex('survey_responses_experiment_idx')
    .on('survey_responses')
    .column('experiment_id')
    .execute();

  // Exposure record: when each static section was completed and how long it was on screen.
  await db.schema
    .createTable('section_exposures')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('experiment_id', 'varchar(36)', (c) => c.notNull().references('experiments.id').onDelete('cascade'))
    .addColumn('condition', 'varchar(20)', (c) => c.notNull())
    .addColumn('section_index', 'integer', (c) => c.notNull())
    .addColumn('section_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('min_seconds', 'integer', (c) => c.notNull())
    .addColumn('seconds_on_screen', real, (c) => c.notNull())
    .addColumn('completed_at', ts, (c) => c.notNull())
    .addUniqueConstraint('section_exposures_once_uq', ['user_id', 'experiment_id', 'section_index'])
    .execute();

  await db.schema
    .createTable('chat_threads')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('experiment_id', 'varchar(36)', (c) => c.notNull().references('experiments.id').onDelete('cascade'))
    .addColumn('condition', 'varchar(20)', (c) => c.notNull())
    .addColumn('title', 'varchar(200)')
    // One reply in flight per thread, as a lease in the database (not process memory).
    .addColumn('reply_lock_id', 'varchar(36)')
    .addColumn('reply_lock_until', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('chat_threads_user_experiment_uq', ['user_id', 'experiment_id'])
    .execute();
  await db.schema.createIndex('chat_threads_experiment_idx').on('chat_threads').column('experiment_id').execute();

  await db.schema
    .createTable('chat_messages')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('thread_id', 'varchar(36)', (c) => c.notNull().references('chat_threads.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('role', 'varchar(20)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('is_initial', bool, (c) => c.notNull())
    /** complete | error | interrupted */
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('error_message', 'text')
    .addColumn('model_used', 'varchar(100)')
    .addColumn('input_tokens', 'integer')
    .addColumn('output_tokens', 'integer')
    .addColumn('cost_usd', real)
    .addColumn('first_token_ms', 'integer')
    .addColumn('total_ms', 'integer')
    .addColumn('stop_reason', 'varchar(50)')
    .addColumn('thinking_log', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addUniqueConstraint('chat_messages_position_uq', ['thread_id', 'position'])
    .execute();
}

export async function down(db: Db): Promise<void> {
  for (const table of [
    'chat_messages',
    'chat_threads',
    'section_exposures',
    'survey_responses',
    'allocation_slots',
    'assignments',
    'experiments',
    'login_failures',
    'sessions',
    'users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

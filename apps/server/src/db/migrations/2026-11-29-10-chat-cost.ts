import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never change once released (DESIGN.md convention 8).
// The chat's cost as billed (issue 32, docs/decisions/0076): per assistant message, its input tokens split into
// those billed at the plain input price, those written to the provider's prompt cache and those read from it
// (null: written before this, or the provider did not say); per thread, running totals of the cache's writes and
// reads beside tokens_used, for the monitor. The provider's shared rate limit: a reply's turn (llm_turns, a fair
// queue in the order the replies asked, live while the thread's reply lease is) and each provider's pause after
// its retry-after (llm_providers); per reply, how long it waited its turn and, when a fallback model answered,
// the model it stood in for.

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// SQLite alters one column per statement.
export async function up(db: Db): Promise<void> {
  const ts = db.getExecutor().adapter instanceof PostgresAdapter ? sql`timestamptz` : sql`text`;
  for (const column of ['uncached_input_tokens', 'cache_write_tokens', 'cache_read_tokens', 'queue_ms']) {
    await db.schema.alterTable('chat_messages').addColumn(column, 'integer').execute();
  }
  await db.schema.alterTable('chat_messages').addColumn('fallback_from', 'varchar(200)').execute();
  for (const column of ['cache_write_tokens', 'cache_read_tokens']) {
    await db.schema
      .alterTable('chat_threads')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  await db.schema
    .createTable('llm_providers')
    .addColumn('provider', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('paused_until', ts)
    .execute();
  await db.schema
    .createTable('llm_turns')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('provider', 'varchar(100)', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('thread_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('lease_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('state', 'varchar(10)', (c) => c.notNull())
    .addColumn('tokens', 'integer', (c) => c.notNull())
    .addColumn('granted_at', ts)
    .execute();
  await db.schema.createIndex('llm_turns_provider_idx').on('llm_turns').columns(['provider', 'seq']).execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('llm_turns').ifExists().execute();
  await db.schema.dropTable('llm_providers').ifExists().execute();
  for (const column of ['cache_read_tokens', 'cache_write_tokens']) {
    await db.schema.alterTable('chat_threads').dropColumn(column).execute();
  }
  for (const column of [
    'fallback_from',
    'queue_ms',
    'cache_read_tokens',
    'cache_write_tokens',
    'uncached_input_tokens',
  ]) {
    await db.schema.alterTable('chat_messages').dropColumn(column).execute();
  }
}

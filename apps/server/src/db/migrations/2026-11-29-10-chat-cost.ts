import { type Kysely } from 'kysely';

// Frozen in time: this migration must never change once released (DESIGN.md convention 8).
// The chat's cost as billed (issue 32, docs/decisions/0076): per assistant message, its input tokens split into
// those billed at the plain input price, those written to the provider's prompt cache and those read from it
// (null: written before this, or the provider did not say); per thread, running totals of the cache's writes and
// reads beside tokens_used, for the monitor.

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// SQLite alters one column per statement.
export async function up(db: Db): Promise<void> {
  for (const column of ['uncached_input_tokens', 'cache_write_tokens', 'cache_read_tokens']) {
    await db.schema.alterTable('chat_messages').addColumn(column, 'integer').execute();
  }
  for (const column of ['cache_write_tokens', 'cache_read_tokens']) {
    await db.schema
      .alterTable('chat_threads')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
}

export async function down(db: Db): Promise<void> {
  for (const column of ['cache_read_tokens', 'cache_write_tokens']) {
    await db.schema.alterTable('chat_threads').dropColumn(column).execute();
  }
  for (const column of ['cache_read_tokens', 'cache_write_tokens', 'uncached_input_tokens']) {
    await db.schema.alterTable('chat_messages').dropColumn(column).execute();
  }
}

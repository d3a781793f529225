import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never change once released (DESIGN.md convention 8).
// The chat's limits (issue 11): an experiment's own limits (null: the environment's default applies),
// each thread's usage counters and why it ended, and a title an admin can recognise.

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function up(db: Db): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  const real = pg ? sql`double precision` : sql`real`;

  for (const column of [
    'chat_max_messages',
    'chat_max_message_chars',
    'chat_reply_tokens',
    'chat_history_tokens',
    'chat_participant_tokens',
  ]) {
    await db.schema.alterTable('experiments').addColumn(column, 'integer').execute();
  }
  await db.schema.alterTable('experiments').addColumn('chat_budget_usd', real).execute();

  // Running totals of the thread's assistant messages, so limits are checked with one indexed read.
  await db.schema
    .alterTable('chat_threads')
    .addColumn('tokens_used', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('chat_threads')
    .addColumn('cost_usd', real, (c) => c.notNull().defaultTo(0))
    .execute();
  /** message_limit | token_limit | budget; null while the chat is open. */
  await db.schema.alterTable('chat_threads').addColumn('closed_reason', 'varchar(20)').execute();
  await db.schema.alterTable('chat_threads').addColumn('closed_at', ts).execute();

  // Threads started before this migration: their usage so far, so limits and budgets count it.
  await sql`
    update chat_threads set
      tokens_used = coalesce((select sum(coalesce(m.input_tokens, 0) + coalesce(m.output_tokens, 0))
        from chat_messages m where m.thread_id = chat_threads.id and m.role = 'assistant'), 0),
      cost_usd = coalesce((select sum(m.cost_usd)
        from chat_messages m where m.thread_id = chat_threads.id and m.role = 'assistant'), 0)
  `.execute(db);
}

export async function down(db: Db): Promise<void> {
  for (const column of ['closed_at', 'closed_reason', 'cost_usd', 'tokens_used']) {
    await db.schema.alterTable('chat_threads').dropColumn(column).execute();
  }
  for (const column of [
    'chat_budget_usd',
    'chat_participant_tokens',
    'chat_history_tokens',
    'chat_reply_tokens',
    'chat_max_message_chars',
    'chat_max_messages',
  ]) {
    await db.schema.alterTable('experiments').dropColumn(column).execute();
  }
}

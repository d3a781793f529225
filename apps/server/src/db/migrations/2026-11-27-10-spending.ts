import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never change once released (DESIGN.md convention 8).
// Spending limits that hold (issue 28, docs/decisions/0073): the spend a thread's reply in flight has reserved
// (counted only while the thread's reply lease is live, so a crashed holder's reservation lapses with its
// lease), whether a message's token counts are estimates (the provider reported none), and the share of the
// budget after which an experiment admits no new participants (null: the environment's default).

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function up(db: Db): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const real = pg ? sql`double precision` : sql`real`;
  const bool = pg ? sql`boolean` : sql`integer`;
  const no = pg ? sql`false` : sql`0`;
  await db.schema
    .alterTable('chat_threads')
    .addColumn('reserved_usd', real, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('chat_messages')
    .addColumn('usage_estimated', bool, (c) => c.notNull().defaultTo(no))
    .execute();
  await db.schema.alterTable('experiments').addColumn('chat_admit_percent', 'integer').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.alterTable('experiments').dropColumn('chat_admit_percent').execute();
  await db.schema.alterTable('chat_messages').dropColumn('usage_estimated').execute();
  await db.schema.alterTable('chat_threads').dropColumn('reserved_usd').execute();
}

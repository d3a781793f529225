import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never change once released (DESIGN.md convention 8).
// A study written as a flow of steps (issue 30, docs/decisions/0075): one row per step a participant has done
// that no other table records (a page's button, a questions page's answers, an AI text's generation and its
// confirmation), owned by the journey module. A step's events name the flow's step id (up to 50 characters).

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function up(db: Db): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  await db.schema
    .createTable('step_records')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('assignment_id', 'varchar(36)', (c) => c.notNull().references('assignments.id').onDelete('cascade'))
    .addColumn('step_id', 'varchar(50)', (c) => c.notNull())
    .addColumn('step_type', 'varchar(20)', (c) => c.notNull())
    // JSON: the answers by key; an AI text's generated text, model, tokens and cost, and the confirmed text.
    .addColumn('data', 'text', (c) => c.notNull())
    // Null until the step is done (an AI text is generated first, then confirmed).
    .addColumn('done_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('step_records_assignment_step_unique', ['assignment_id', 'step_id'])
    .execute();
  if (pg) await sql`alter table journey_events alter column step type varchar(60)`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('step_records').execute();
}

import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never change once released (DESIGN.md convention 8).
// A study written as a flow of steps (issue 30, docs/decisions/0075): one row per step a participant has done
// that no other table records (a page's button, a questions page's answers, an AI text's generation and its
// confirmation), owned by the flow module. A step's events name the flow's step id (up to 50 characters); a
// flow's pathways are its own keys (up to 30 characters: completion codes and completions lose the check that
// allowed the built-in study's three only) and its strata are the bins the researcher names (up to 100).

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
  if (pg) {
    await sql`alter table journey_events alter column step type varchar(60)`.execute(db);
    await sql`alter table completion_codes drop constraint completion_codes_pathway_check`.execute(db);
    await sql`alter table completion_codes alter column pathway type varchar(30)`.execute(db);
    await sql`alter table assignments alter column completion_pathway type varchar(30)`.execute(db);
    await sql`alter table assignments alter column stratum type varchar(100)`.execute(db);
    await sql`alter table allocation_slots alter column stratum type varchar(100)`.execute(db);
    return;
  }
  // SQLite keeps a check constraint for the table's life: the table is made again without it (lengths are not
  // enforced by SQLite).
  await sql`create table completion_codes_new (
    experiment_id varchar(36) not null references experiments(id) on delete cascade,
    pathway varchar(30) not null,
    code varchar(100) not null,
    constraint completion_codes_pk primary key (experiment_id, pathway))`.execute(db);
  await sql`insert into completion_codes_new (experiment_id, pathway, code)
    select experiment_id, pathway, code from completion_codes`.execute(db);
  await sql`drop table completion_codes`.execute(db);
  await sql`alter table completion_codes_new rename to completion_codes`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('step_records').execute();
}

import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time (DESIGN.md convention 8). One Prolific id takes part once per experiment: the first login
// to present an id in an experiment claims it, and the primary key refuses a second claim, so two logins
// racing with the same id cannot both join. Existing assignments are left as they are; the earliest one of
// each (experiment, Prolific id) holds the claim, so older duplicates stay readable but no new one can occur.

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function up(db: Db): Promise<void> {
  const ts = db.getExecutor().adapter instanceof PostgresAdapter ? sql`timestamptz` : sql`text`;
  await db.schema
    .createTable('experiment_prolific_ids')
    .addColumn('experiment_id', 'varchar(36)', (c) => c.notNull().references('experiments.id').onDelete('cascade'))
    .addColumn('prolific_pid', 'varchar(64)', (c) => c.notNull())
    .addColumn('assignment_id', 'varchar(36)', (c) =>
      c.notNull().unique().references('assignments.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('experiment_prolific_ids_pk', ['experiment_id', 'prolific_pid'])
    .execute();

  await sql`
    insert into experiment_prolific_ids (experiment_id, prolific_pid, assignment_id, user_id, created_at)
    select a.experiment_id, a.prolific_pid, a.id, a.user_id, a.created_at
    from assignments a
    where a.prolific_pid is not null
      and not exists (
        select 1 from assignments b
        where b.experiment_id = a.experiment_id
          and b.prolific_pid = a.prolific_pid
          and (b.created_at < a.created_at or (b.created_at = a.created_at and b.id < a.id))
      )
  `.execute(db);
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('experiment_prolific_ids').ifExists().execute();
}

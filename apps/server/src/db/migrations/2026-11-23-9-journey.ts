import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time (DESIGN.md convention 8). The server-owned journey (docs/decisions/0009):
// - journey_events: the append-only participant event log, one row per step reached or attempted out of
//   order, ordered by a monotonically increasing position `seq` (monitors and exports read after a seq);
// - section_views: when the server opened and finished each static section, beside the seconds the page
//   reported visible and hidden. section_exposures (browser-timed, before this) is kept as it is and still read.

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function up(db: Db): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  const real = pg ? sql`double precision` : sql`real`;

  await db.schema
    .createTable('journey_events')
    .addColumn('seq', pg ? 'bigint' : 'integer', (c) =>
      pg ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('experiment_id', 'varchar(36)', (c) => c.notNull().references('experiments.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('assignment_id', 'varchar(36)', (c) => c.references('assignments.id').onDelete('set null'))
    .addColumn('type', 'varchar(40)', (c) => c.notNull())
    .addColumn('step', 'varchar(40)', (c) => c.notNull())
    .addColumn('data', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('journey_events_experiment_seq_idx')
    .on('journey_events')
    .columns(['experiment_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('journey_events_participant_idx')
    .on('journey_events')
    .columns(['experiment_id', 'user_id', 'seq'])
    .execute();

  await db.schema
    .createTable('section_views')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('assignment_id', 'varchar(36)', (c) => c.notNull().references('assignments.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('experiment_id', 'varchar(36)', (c) => c.notNull().references('experiments.id').onDelete('cascade'))
    .addColumn('condition', 'varchar(20)', (c) => c.notNull())
    .addColumn('section_index', 'integer', (c) => c.notNull())
    .addColumn('section_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('min_seconds', 'integer', (c) => c.notNull())
    .addColumn('opened_at', ts, (c) => c.notNull())
    .addColumn('finished_at', ts)
    .addColumn('visible_seconds', real)
    .addColumn('hidden_seconds', real)
    .addUniqueConstraint('section_views_once_uq', ['assignment_id', 'section_index'])
    .execute();
  await db.schema
    .createIndex('section_views_experiment_idx')
    .on('section_views')
    .columns(['experiment_id', 'user_id'])
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('section_views').ifExists().execute();
  await db.schema.dropTable('journey_events').ifExists().execute();
}

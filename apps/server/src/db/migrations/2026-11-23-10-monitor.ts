import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time (DESIGN.md convention 8). The live study monitor (issue 10, docs/decisions/0030):
// - users.last_seen_at: the participant's last API call (written at most once per participant per 30 s);
// - experiments.monitor_stale_minutes: a participant in progress without activity for this long is stale
//   (null: the default, 30 minutes);
// - experiments.target_sample_size: the sample size the spend is projected at (null: none set).

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function up(db: Db): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;
  await db.schema.alterTable('users').addColumn('last_seen_at', ts).execute();
  await db.schema.alterTable('experiments').addColumn('monitor_stale_minutes', 'integer').execute();
  await db.schema.alterTable('experiments').addColumn('target_sample_size', 'integer').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.alterTable('experiments').dropColumn('target_sample_size').execute();
  await db.schema.alterTable('experiments').dropColumn('monitor_stale_minutes').execute();
  await db.schema.alterTable('users').dropColumn('last_seen_at').execute();
}

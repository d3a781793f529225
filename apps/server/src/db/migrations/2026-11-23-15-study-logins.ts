import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never change once released (DESIGN.md convention 8).
// Which experiment each generated study login belongs to, indexed, so the experiment page can list its
// logins as used or unused without scanning every user's metadata. Existing logins are filled in from the
// metadata their batch wrote ({ experimentId, batchId, ... }).

type Db = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const CHUNK = 200;

export async function up(db: Db): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? sql`timestamptz` : sql`text`;

  await db.schema
    .createTable('study_logins')
    .addColumn('user_id', 'varchar(36)', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('experiment_id', 'varchar(36)', (c) => c.notNull().references('experiments.id').onDelete('cascade'))
    .addColumn('batch_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('study_logins_experiment_idx')
    .on('study_logins')
    .columns(['experiment_id', 'created_at'])
    .execute();

  const experiments = new Set(
    (await db.selectFrom('experiments').select('id').execute()).map((r: { id: string }) => r.id),
  );
  const users: { id: string; metadata: string; created_at: unknown }[] = await db
    .selectFrom('users')
    .select(['id', 'metadata', 'created_at'])
    .where('metadata', 'is not', null)
    .where('is_admin', '=', false)
    .execute();
  const rows = users.flatMap((user) => {
    let meta: unknown;
    try {
      meta = JSON.parse(user.metadata);
    } catch {
      return [];
    }
    if (typeof meta !== 'object' || meta === null) return [];
    const { experimentId, batchId } = meta as { experimentId?: unknown; batchId?: unknown };
    if (typeof experimentId !== 'string' || !experiments.has(experimentId)) return [];
    const batch = typeof batchId === 'string' && batchId.length <= 36 ? batchId : user.id;
    return [{ user_id: user.id, experiment_id: experimentId, batch_id: batch, created_at: user.created_at }];
  });
  for (let start = 0; start < rows.length; start += CHUNK) {
    await db
      .insertInto('study_logins')
      .values(rows.slice(start, start + CHUNK))
      .execute();
  }
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('study_logins').execute();
}

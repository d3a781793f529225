import type { Kysely, Selectable } from 'kysely';
import type { DB, PilotRunsTable } from '../../db/schema.js';
import { toIso } from '../../db/values.js';

type Db = Kysely<DB>;

export type PilotRunRow = Omit<PilotRunsTable, 'created_at' | 'finished_at'> & {
  created_at: string;
  finished_at: string;
};

export async function insertPilotRun(db: Db, row: PilotRunRow): Promise<void> {
  await db.insertInto('pilot_runs').values(row).execute();
}

const asRow = (r: Selectable<PilotRunsTable>): PilotRunRow => ({
  ...r,
  created_at: toIso(r.created_at),
  finished_at: toIso(r.finished_at),
});

export async function findPilotRun(db: Db, experimentId: string, id: string): Promise<PilotRunRow | undefined> {
  const row = await db
    .selectFrom('pilot_runs')
    .selectAll()
    .where('id', '=', id)
    .where('experiment_id', '=', experimentId)
    .executeTakeFirst();
  return row ? asRow(row) : undefined;
}

/** The experiment's runs, newest first. */
export async function listPilotRuns(db: Db, experimentId: string): Promise<PilotRunRow[]> {
  const rows = await db
    .selectFrom('pilot_runs')
    .selectAll()
    .where('experiment_id', '=', experimentId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
  return rows.map(asRow);
}

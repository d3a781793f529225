import type { Kysely } from 'kysely';
import { forUpdate } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';
import { toNumber } from '../../db/values.js';

// An experiment's quotas (docs/decisions/0077): this module's table, and how many real participants were assigned
// to each condition in each stratum (read from the assignments, as the study-logins list reads them).

export interface QuotaRow {
  condition: string;
  /** '' for every stratum together. */
  stratum: string;
  max_participants: number;
}

export function listQuotaRows(db: Kysely<DB>, experimentId: string, lock = false): Promise<QuotaRow[]> {
  const query = db
    .selectFrom('experiment_quotas')
    .select(['condition', 'stratum', 'max_participants'])
    .where('experiment_id', '=', experimentId)
    .orderBy('condition')
    .orderBy('stratum');
  // Locked (PostgreSQL: FOR UPDATE) by an assignment: two assignments of an experiment with quotas run one after
  // the other, so the second counts the first; SQLite runs one writer at a time.
  return (lock ? forUpdate(db, query) : query).execute();
}

export async function replaceQuotaRows(db: Kysely<DB>, experimentId: string, rows: readonly QuotaRow[]): Promise<void> {
  await db.deleteFrom('experiment_quotas').where('experiment_id', '=', experimentId).execute();
  if (rows.length > 0) {
    await db
      .insertInto('experiment_quotas')
      .values(rows.map((r) => ({ experiment_id: experimentId, ...r })))
      .execute();
  }
}

/** Real participants (previews left out) assigned so far, per condition and stratum. */
export async function countAssignedCells(
  db: Kysely<DB>,
  experimentId: string,
): Promise<{ condition: string; stratum: string; n: number }[]> {
  const rows = await db
    .selectFrom('assignments')
    .select(['assigned_condition', 'stratum', (eb) => eb.fn.countAll().as('n')])
    .where('experiment_id', '=', experimentId)
    .where('is_test', '=', false)
    .where('assigned_condition', 'is not', null)
    .groupBy(['assigned_condition', 'stratum'])
    .execute();
  return rows.map((r) => ({
    condition: String(r.assigned_condition),
    stratum: r.stratum ?? '',
    n: toNumber(r.n as number | string),
  }));
}

import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

// The bonus ledger (docs/decisions/0089-prolific-reject-and-bonuses.md): batches keyed by the client's idempotency
// key, their lines, and the compare-and-set on a batch's status that lets one request at a time call Prolific.

export type BatchRow = Awaited<ReturnType<typeof findBatch>>;

export interface NewBatch {
  id: string;
  experimentId: string;
  idempotencyKey: string;
  source: 'rule' | 'csv';
  reason: string;
  studyId: string;
  createdBy: string;
  at: string;
  lines: readonly { prolificPid: string; amountCents: number }[];
}

/** The experiment's real (not preview) participants with these Prolific ids. */
export function participantsWithPids(db: Kysely<DB>, experimentId: string, pids: readonly string[]) {
  if (pids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('assignments')
    .select(['id', 'prolific_pid', 'session_id'])
    .where('experiment_id', '=', experimentId)
    .where('is_test', '=', false)
    .where('prolific_pid', 'in', [...pids])
    .execute();
}

/** The Prolific ids of the experiment's real participants who finished on the pathway, but not those rejected. */
export async function completersOf(db: Kysely<DB>, experimentId: string, pathway: string): Promise<string[]> {
  const rows = await db
    .selectFrom('assignments as a')
    .leftJoin('prolific_submissions as s', 's.assignment_id', 'a.id')
    .select('a.prolific_pid')
    .where('a.experiment_id', '=', experimentId)
    .where('a.is_test', '=', false)
    .where('a.completion_pathway', '=', pathway)
    .where('a.prolific_pid', 'is not', null)
    .where((eb) => eb.or([eb('s.status', 'is', null), eb('s.status', '!=', 'rejected')]))
    .orderBy('a.prolific_pid')
    .execute();
  return rows.map((r) => r.prolific_pid).filter((pid): pid is string => pid !== null);
}

/** Records a batch and its lines unless the key is taken; false when it was (the caller reads the first). */
export async function insertBatch(db: Kysely<DB>, batch: NewBatch): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('prolific_bonus_batches')
      .values({
        id: batch.id,
        experiment_id: batch.experimentId,
        idempotency_key: batch.idempotencyKey,
        source: batch.source,
        reason: batch.reason,
        status: 'prepared',
        total_cents: batch.lines.reduce((sum, l) => sum + l.amountCents, 0),
        study_id: batch.studyId,
        created_by: batch.createdBy,
        created_at: batch.at,
        updated_at: batch.at,
      })
      .onConflict((oc) => oc.columns(['experiment_id', 'idempotency_key']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) return false;
    for (let i = 0; i < batch.lines.length; i += 500) {
      await trx
        .insertInto('prolific_bonus_lines')
        .values(
          batch.lines
            .slice(i, i + 500)
            .map((l) => ({ batch_id: batch.id, prolific_pid: l.prolificPid, amount_cents: l.amountCents })),
        )
        .execute();
    }
    return true;
  });
}

const BATCH_COLUMNS = [
  'id',
  'experiment_id',
  'idempotency_key',
  'source',
  'reason',
  'status',
  'total_cents',
  'study_id',
  'prolific_bulk_id',
  'prolific_fees',
  'prolific_total',
  'repeats_confirmed',
  'last_error',
  'created_at',
  'updated_at',
  'paid_at',
] as const;

export function findBatch(db: Kysely<DB>, experimentId: string, batchId: string) {
  return db
    .selectFrom('prolific_bonus_batches')
    .select(BATCH_COLUMNS)
    .where('experiment_id', '=', experimentId)
    .where('id', '=', batchId)
    .executeTakeFirst();
}

export function findBatchByKey(db: Kysely<DB>, experimentId: string, key: string) {
  return db
    .selectFrom('prolific_bonus_batches')
    .select(BATCH_COLUMNS)
    .where('experiment_id', '=', experimentId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

export function batchesOf(db: Kysely<DB>, experimentId: string) {
  return db
    .selectFrom('prolific_bonus_batches')
    .select(BATCH_COLUMNS)
    .where('experiment_id', '=', experimentId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(100)
    .execute();
}

export function linesOf(db: Kysely<DB>, batchIds: readonly string[]) {
  if (batchIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('prolific_bonus_lines')
    .select(['batch_id', 'prolific_pid', 'amount_cents'])
    .where('batch_id', 'in', [...batchIds])
    .orderBy('batch_id')
    .orderBy('prolific_pid')
    .execute();
}

/** Statuses of a batch that may have paid or may yet pay: a Prolific id in one is "already bonused". */
const BONUSED = ['setting_up', 'set_up', 'paying', 'paid', 'failed'];

/** Which of these Prolific ids have a line in another batch of the experiment that may have paid. */
export async function bonusedElsewhere(
  db: Kysely<DB>,
  experimentId: string,
  pids: readonly string[],
  exceptBatchId: string | null,
): Promise<Set<string>> {
  if (pids.length === 0) return new Set();
  let query = db
    .selectFrom('prolific_bonus_lines as l')
    .innerJoin('prolific_bonus_batches as b', 'b.id', 'l.batch_id')
    .select('l.prolific_pid')
    .distinct()
    .where('b.experiment_id', '=', experimentId)
    .where('b.status', 'in', BONUSED)
    .where('l.prolific_pid', 'in', [...pids]);
  if (exceptBatchId) query = query.where('b.id', '!=', exceptBatchId);
  return new Set((await query.execute()).map((r) => r.prolific_pid));
}

/**
 * The claim: moves the batch to `to` only if its status is one of `from` (or, with `staleFrom`, one of those and
 * untouched since `staleBefore`), in one statement. Of two requests at once exactly one gets true.
 */
export async function claimBatch(
  db: Kysely<DB>,
  input: {
    batchId: string;
    from: readonly string[];
    staleFrom?: readonly string[];
    staleBefore?: string;
    to: string;
    at: string;
    set?: { repeats_confirmed?: boolean; paid_by?: string };
  },
): Promise<boolean> {
  const result = await db
    .updateTable('prolific_bonus_batches')
    .set({ status: input.to, updated_at: input.at, ...input.set })
    .where('id', '=', input.batchId)
    .where((eb) => {
      const { staleFrom, staleBefore } = input;
      const fresh = eb('status', 'in', [...input.from]);
      if (!staleFrom || staleFrom.length === 0 || !staleBefore) return fresh;
      return eb.or([fresh, eb.and([eb('status', 'in', [...staleFrom]), eb('updated_at', '<', staleBefore)])]);
    })
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Writes the outcome of a Prolific call on a batch this request claimed (its status still `from`). */
export async function settleBatch(
  db: Kysely<DB>,
  input: {
    batchId: string;
    from: string;
    to: string;
    at: string;
    lastError: string | null;
    setUp?: { bulkId: string; fees: string | null; total: string | null };
    paidAt?: string;
  },
): Promise<void> {
  await db
    .updateTable('prolific_bonus_batches')
    .set({
      status: input.to,
      updated_at: input.at,
      last_error: input.lastError,
      ...(input.setUp
        ? { prolific_bulk_id: input.setUp.bulkId, prolific_fees: input.setUp.fees, prolific_total: input.setUp.total }
        : {}),
      ...(input.paidAt ? { paid_at: input.paidAt } : {}),
    })
    .where('id', '=', input.batchId)
    .where('status', '=', input.from)
    .execute();
}

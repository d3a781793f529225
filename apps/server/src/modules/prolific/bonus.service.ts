import { randomUUID } from 'node:crypto';
import type { BonusBatch, BonusBatchList, PayBonusBody, PrepareBonusBody } from '@studychat/contracts';
import { toBool, toIso, toIsoOrNull } from '../../db/values.js';
import { AppError, notFound } from '../../lib/errors.js';
import { ProlificError } from './prolific-client.js';
import { experimentExists, readStudyLink } from './prolific.repository.js';
import { asAppError, clientOf, type ProlificRuntime } from './prolific.service.js';
import { centsOf, decimalOf, parseBonusCsv, type LineProblem } from './bonus-lines.js';
import {
  batchesOf,
  bonusedElsewhere,
  claimBatch,
  completersOf,
  findBatch,
  findBatchByKey,
  insertBatch,
  linesOf,
  participantsWithPids,
  settleBatch,
  type BatchRow,
} from './bonus.repository.js';

// Bonuses through our own ledger (docs/decisions/0089-prolific-reject-and-bonuses.md). Prolific pays in two steps,
// set up then pay, and its pay call is not idempotent: every call pays again. So a batch is set up once (the bulk id
// kept) and paid once: each step is claimed by a compare-and-set on the batch's status before Prolific is called,
// and a pay whose outcome is unknown (5xx, time-out) is never tried again without the researcher saying that
// Prolific shows it unpaid.

/** A set-up claimed this long ago by a process that never came back may be set up again (an unpaid set-up costs nothing). */
const STALE_SETTING_UP_MS = 10 * 60_000;
const MAX_ISSUES = 200;

export type AuditFailure = (details: Record<string, unknown>) => Promise<void>;

function invalid(problems: LineProblem[], message: string): AppError {
  return new AppError(400, 'BONUS_LINES_INVALID', message, undefined, { issues: problems.slice(0, MAX_ISSUES) });
}

async function viewOf(runtime: ProlificRuntime, rows: NonNullable<BatchRow>[]): Promise<BonusBatch[]> {
  const { db } = runtime.deps.database;
  const lines = await linesOf(
    db,
    rows.map((r) => r.id),
  );
  return Promise.all(
    rows.map(async (row) => {
      const own = lines.filter((l) => l.batch_id === row.id);
      const repeats = await bonusedElsewhere(
        db,
        row.experiment_id,
        own.map((l) => l.prolific_pid),
        row.id,
      );
      return {
        id: row.id,
        experimentId: row.experiment_id,
        idempotencyKey: row.idempotency_key,
        source: row.source === 'rule' ? 'rule' : 'csv',
        reason: row.reason,
        status: row.status as BonusBatch['status'],
        totalCents: Number(row.total_cents),
        total: decimalOf(Number(row.total_cents)),
        lines: own.map((l) => ({
          prolificPid: l.prolific_pid,
          amountCents: Number(l.amount_cents),
          amount: decimalOf(Number(l.amount_cents)),
          alreadyBonused: repeats.has(l.prolific_pid),
        })),
        prolificBulkId: row.prolific_bulk_id,
        prolificFees: row.prolific_fees,
        prolificTotal: row.prolific_total,
        lastError: row.last_error,
        createdAt: toIso(row.created_at),
        updatedAt: toIso(row.updated_at),
        paidAt: toIsoOrNull(row.paid_at),
      } satisfies BonusBatch;
    }),
  );
}

async function one(runtime: ProlificRuntime, row: NonNullable<BatchRow>): Promise<BonusBatch> {
  const [batch] = await viewOf(runtime, [row]);
  if (!batch) throw new Error('a batch without its view');
  return batch;
}

async function mustExist(runtime: ProlificRuntime, experimentId: string): Promise<void> {
  if (!(await experimentExists(runtime.deps.database.db, experimentId))) throw notFound('Experiment not found');
}

export async function listBonuses(runtime: ProlificRuntime, experimentId: string): Promise<BonusBatchList> {
  await mustExist(runtime, experimentId);
  return { batches: await viewOf(runtime, await batchesOf(runtime.deps.database.db, experimentId)) };
}

/** The lines of a batch from a rule or a CSV, every line checked against the experiment's participants. */
async function linesFor(runtime: ProlificRuntime, experimentId: string, source: PrepareBonusBody['source']) {
  const { db } = runtime.deps.database;
  if (source.kind === 'rule') {
    const cents = centsOf(source.amount);
    if (cents === null)
      throw invalid([{ path: 'amount', message: 'is not a bonus amount' }], 'The amount is not valid.');
    const pids = await completersOf(db, experimentId, source.pathway);
    if (pids.length === 0) {
      throw invalid([{ path: 'pathway', message: 'no participant finished on it' }], 'Nobody to pay on that pathway.');
    }
    return pids.map((prolificPid) => ({ prolificPid, amountCents: cents }));
  }
  const { lines, problems } = parseBonusCsv(source.csv);
  const known = new Set(
    (
      await participantsWithPids(
        db,
        experimentId,
        lines.map((l) => l.prolificPid),
      )
    ).map((r) => r.prolific_pid),
  );
  for (const line of lines) {
    if (!known.has(line.prolificPid)) {
      problems.push({
        path: `line ${line.line}`,
        message: `${line.prolificPid} is not a participant of this experiment`,
      });
    }
  }
  if (problems.length > 0) {
    problems.sort((a, b) => Number(a.path.split(' ')[1] ?? 0) - Number(b.path.split(' ')[1] ?? 0));
    throw invalid(problems, `${problems.length} line${problems.length === 1 ? '' : 's'} cannot be paid.`);
  }
  return lines.map(({ prolificPid, amountCents }) => ({ prolificPid, amountCents }));
}

/**
 * Prepares a batch (nothing is sent to Prolific): its lines, its total, and which Prolific ids already have a bonus.
 * The same idempotency key answers the batch it made first, whatever else the request says.
 */
export async function prepareBonus(
  runtime: ProlificRuntime,
  experimentId: string,
  userId: string,
  body: PrepareBonusBody,
): Promise<BonusBatch> {
  const { deps } = runtime;
  const { db } = deps.database;
  await mustExist(runtime, experimentId);
  const earlier = await findBatchByKey(db, experimentId, body.idempotencyKey);
  if (earlier) return one(runtime, earlier);
  const link = await readStudyLink(db, experimentId);
  if (!link) {
    throw new AppError(409, 'PROLIFIC_STUDY_NOT_LINKED', 'Link this experiment to its Prolific study first.');
  }
  const lines = await linesFor(runtime, experimentId, body.source);
  await insertBatch(db, {
    id: randomUUID(),
    experimentId,
    idempotencyKey: body.idempotencyKey,
    source: body.source.kind,
    reason: body.reason,
    studyId: link.study_id,
    createdBy: userId,
    at: deps.clock().toISOString(),
    lines,
  });
  const batch = await findBatchByKey(db, experimentId, body.idempotencyKey);
  if (!batch) throw new Error('the bonus batch was not stored');
  return one(runtime, batch);
}

/**
 * Sets up (once) and pays (once) a prepared batch. A second request, a retry or a double click finds the step
 * claimed or done and answers the batch as it stands; Prolific is never asked to pay one bulk id twice unless the
 * researcher confirms (`confirmNotPaid`) that a pay with an unknown outcome did not go through.
 */
export async function payBonus(
  runtime: ProlificRuntime,
  input: { experimentId: string; batchId: string; userId: string; body: PayBonusBody; auditFailure: AuditFailure },
): Promise<BonusBatch> {
  const { deps } = runtime;
  const { db } = deps.database;
  const { experimentId, batchId, body } = input;
  await mustExist(runtime, experimentId);
  const read = async () => {
    const row = await findBatch(db, experimentId, batchId);
    if (!row) throw notFound('Bonus batch not found');
    return row;
  };
  let batch = await read();
  if (batch.status === 'paid') return one(runtime, batch);
  const client = await clientOf(runtime);
  if (!client) throw new AppError(409, 'PROLIFIC_NOT_CONFIGURED', 'Set a Prolific API token first.');

  const lines = await linesOf(db, [batch.id]);
  if (!toBool(batch.repeats_confirmed) && body.confirmRepeats !== true) {
    const repeats = await bonusedElsewhere(
      db,
      experimentId,
      lines.map((l) => l.prolific_pid),
      batch.id,
    );
    if (repeats.size > 0) {
      throw new AppError(
        409,
        'BONUS_REPEAT_UNCONFIRMED',
        `${repeats.size} participant${repeats.size === 1 ? ' has' : 's have'} a bonus in another batch already: confirm to pay again.`,
        undefined,
        { issues: [...repeats].sort().map((pid) => ({ path: pid, message: 'already has a bonus' })) },
      );
    }
  }
  const now = () => deps.clock().toISOString();
  const failure = async (step: string, error: unknown, to: string) => {
    await input.auditFailure({ batchId, step, outcome: to, error: (error as Error).message });
  };

  // Step 1: set up, once. An unpaid set-up costs nothing, so one left by a stopped process may be made again.
  if (batch.status === 'prepared' || batch.status === 'setting_up') {
    const claimed = await claimBatch(db, {
      batchId,
      from: ['prepared'],
      staleFrom: ['setting_up'],
      staleBefore: new Date(deps.clock().getTime() - STALE_SETTING_UP_MS).toISOString(),
      to: 'setting_up',
      at: now(),
      set: {
        repeats_confirmed: toBool(batch.repeats_confirmed) || body.confirmRepeats === true,
        paid_by: input.userId,
      },
    });
    if (!claimed) return one(runtime, await read());
    const csv = lines.map((l) => `${l.prolific_pid},${decimalOf(Number(l.amount_cents))}`).join('\n');
    try {
      const setUp = await client.setUpBonuses(batch.study_id, csv);
      await settleBatch(db, {
        batchId,
        from: 'setting_up',
        to: 'set_up',
        at: now(),
        lastError: null,
        setUp: { bulkId: setUp.id, fees: setUp.fees, total: setUp.totalAmount },
      });
    } catch (error) {
      if (!(error instanceof ProlificError)) throw error;
      await settleBatch(db, { batchId, from: 'setting_up', to: 'prepared', at: now(), lastError: error.message });
      await failure('set_up', error, 'prepared');
      throw asAppError(error);
    }
    batch = await read();
  }

  // Step 2: pay, once. After a pay whose outcome is unknown, only with the researcher's word that nothing was paid.
  if (batch.status === 'failed' && body.confirmNotPaid !== true) {
    throw new AppError(
      409,
      'BONUS_PAY_UNCERTAIN',
      'Prolific did not confirm the last payment of this batch. Check the bonuses on Prolific; pay again only if it shows nothing paid.',
    );
  }
  if ((batch.status !== 'set_up' && batch.status !== 'failed') || !batch.prolific_bulk_id) return one(runtime, batch);
  const bulkId = batch.prolific_bulk_id;
  const claimed = await claimBatch(db, {
    batchId,
    from: [batch.status],
    to: 'paying',
    at: now(),
    set: { paid_by: input.userId },
  });
  if (!claimed) return one(runtime, await read());
  try {
    await client.payBonuses(bulkId);
    await settleBatch(db, { batchId, from: 'paying', to: 'paid', at: now(), lastError: null, paidAt: now() });
  } catch (error) {
    if (!(error instanceof ProlificError)) throw error;
    // A refusal (4xx) or a 429 that never let us through paid nothing; a 5xx or no answer may have paid.
    const unknown = error.kind === 'unavailable';
    const to = unknown ? 'failed' : 'set_up';
    await settleBatch(db, { batchId, from: 'paying', to, at: now(), lastError: error.message });
    await failure('pay', error, to);
    const reply = asAppError(error);
    if (unknown) {
      throw new AppError(
        502,
        'PROLIFIC_UNAVAILABLE',
        `${error.message}. Prolific may or may not have paid: check its bonuses page before paying again.`,
      );
    }
    throw reply;
  }
  return one(runtime, await read());
}

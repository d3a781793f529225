import {
  QUOTA_FULL_TEXT,
  conditionIds,
  type FlowDefinition,
  type Quota,
  type QuotasReply,
  type RandomiseStep,
} from '@studychat/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { AppDeps } from '../../lib/deps.js';
import { AppError, badRequest } from '../../lib/errors.js';
import { requireExperiment } from './experiments.service.js';
import { countAssignedCells, listQuotaRows, replaceQuotaRows, type QuotaRow } from './quotas.repository.js';

// Quotas per condition and stratum (issue 34, docs/decisions/0077): a full cell stops assigning to it; when every
// cell is full, new joins are refused as closed.

/** The built-in study's strata (its baseline intention 1-6; 7 is the ceiling exit). */
const BUILT_IN_STRATA = ['1-2', '3-4', '5-6'];

/** The first randomise step of a flow, if it has one. */
function randomiseStep(flow: FlowDefinition): RandomiseStep | undefined {
  return flow.steps.find((s): s is RandomiseStep => s.type === 'randomise');
}

/** The conditions and strata a quota may name: those of the pinned study (a flow: its randomise step). */
export async function quotaCells(
  deps: AppDeps,
  experimentId: string,
): Promise<{ conditions: string[]; strata: string[] }> {
  const flow = await deps.flows(experimentId);
  if (flow) {
    const step = randomiseStep(flow);
    if (!step) return { conditions: [], strata: [] };
    const conditions = Object.keys(step.weights).filter((c) => (step.weights[c] ?? 0) > 0);
    const strata = step.strata ? [...step.strata.bins.map((b) => b.label), 'unbinned'] : ['all'];
    return { conditions, strata };
  }
  const study = await deps.studies(experimentId);
  return { conditions: conditionIds(study), strata: BUILT_IN_STRATA };
}

const cellKey = (condition: string, stratum: string) => `${condition}\u0000${stratum}`;

/** Counts per cell and per condition (every stratum). */
function tally(rows: { condition: string; stratum: string; n: number }[]) {
  const byCell = new Map<string, number>();
  const byCondition = new Map<string, number>();
  for (const r of rows) {
    byCell.set(cellKey(r.condition, r.stratum), (byCell.get(cellKey(r.condition, r.stratum)) ?? 0) + r.n);
    byCondition.set(r.condition, (byCondition.get(r.condition) ?? 0) + r.n);
  }
  return { byCell, byCondition };
}

type Tally = ReturnType<typeof tally>;

function filledOf(quota: QuotaRow, counts: Tally): number {
  return quota.stratum === ''
    ? (counts.byCondition.get(quota.condition) ?? 0)
    : (counts.byCell.get(cellKey(quota.condition, quota.stratum)) ?? 0);
}

/** Whether a participant of `stratum` may still be assigned `condition`: no quota over that cell is full. */
function cellOpen(quotas: readonly QuotaRow[], counts: Tally, condition: string, stratum: string): boolean {
  return quotas.every(
    (q) =>
      q.condition !== condition ||
      (q.stratum !== '' && q.stratum !== stratum) ||
      filledOf(q, counts) < q.max_participants,
  );
}

function everyCellFull(quotas: readonly QuotaRow[], counts: Tally, cells: { conditions: string[]; strata: string[] }) {
  if (quotas.length === 0 || cells.conditions.length === 0) return false;
  return cells.strata.every((s) => cells.conditions.every((c) => !cellOpen(quotas, counts, c, s)));
}

/** The experiment's quotas with how full each is, what they may name, and whether every cell is full. */
export async function getQuotas(deps: AppDeps, experimentId: string): Promise<QuotasReply> {
  await requireExperiment(deps, experimentId);
  const { db } = deps.database;
  const [rows, counted, cells] = await Promise.all([
    listQuotaRows(db, experimentId),
    countAssignedCells(db, experimentId),
    quotaCells(deps, experimentId),
  ]);
  const counts = tally(counted);
  return {
    quotas: rows.map((q) => ({
      condition: q.condition,
      stratum: q.stratum === '' ? null : q.stratum,
      max: q.max_participants,
      filled: filledOf(q, counts),
    })),
    conditions: cells.conditions,
    strata: cells.strata,
    full: everyCellFull(rows, counts, cells),
  };
}

/**
 * Replaces the experiment's quotas. Each names a condition of the pinned study and one of its strata (or null:
 * every stratum), once (400 naming the quota otherwise). A quota below what is already filled is allowed: the
 * cell is simply full.
 */
export async function updateQuotas(
  deps: AppDeps,
  experimentId: string,
  quotas: readonly Quota[],
): Promise<QuotasReply> {
  await requireExperiment(deps, experimentId);
  const cells = await quotaCells(deps, experimentId);
  const seen = new Set<string>();
  const rows: QuotaRow[] = quotas.map((q, i) => {
    if (!cells.conditions.includes(q.condition)) {
      throw badRequest(
        `quotas.${i}.condition: "${q.condition}" is not a condition of this experiment's study (${cells.conditions.join(', ') || 'it randomises no one'})`,
      );
    }
    if (q.stratum !== null && !cells.strata.includes(q.stratum)) {
      throw badRequest(
        `quotas.${i}.stratum: "${q.stratum}" is not a stratum of this study (${cells.strata.join(', ')})`,
      );
    }
    const stratum = q.stratum ?? '';
    if (seen.has(cellKey(q.condition, stratum))) {
      throw badRequest(`quotas.${i}: a second quota for ${q.condition} in ${q.stratum ?? 'every stratum'}`);
    }
    seen.add(cellKey(q.condition, stratum));
    return { condition: q.condition, stratum, max_participants: q.max };
  });
  await deps.database.db.transaction().execute((trx) => replaceQuotaRows(trx, experimentId, rows));
  return getQuotas(deps, experimentId);
}

/**
 * For an assignment, in its transaction: the conditions a participant of `stratum` may still be assigned (all of
 * them without quotas: one read). With quotas, their rows stay locked to the end of the transaction (PostgreSQL),
 * so a second assignment racing for the last place counts the first. 409 QUOTA_FULL when none is left.
 */
export async function openConditions(
  trx: Kysely<DB>,
  experimentId: string,
  conditions: readonly string[],
  stratum: string,
): Promise<string[]> {
  const quotas = await listQuotaRows(trx, experimentId, true);
  if (quotas.length === 0) return [...conditions];
  const counts = tally(await countAssignedCells(trx, experimentId));
  const open = conditions.filter((c) => cellOpen(quotas, counts, c, stratum));
  if (open.length === 0) throw new AppError(409, 'QUOTA_FULL', QUOTA_FULL_TEXT);
  return open;
}

/** Whether every cell of the experiment is full (new joins are refused as closed); false without quotas. */
export async function experimentFull(deps: AppDeps, db: Kysely<DB>, experimentId: string): Promise<boolean> {
  const quotas = await listQuotaRows(db, experimentId);
  if (quotas.length === 0) return false;
  const [counted, cells] = await Promise.all([countAssignedCells(db, experimentId), quotaCells(deps, experimentId)]);
  return everyCellFull(quotas, tally(counted), cells);
}

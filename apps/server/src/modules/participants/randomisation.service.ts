import type { Kysely } from 'kysely';
import { conditionIds, type Assignment, type Condition, type Journey } from '@studychat/contracts';
import type { AssignmentRow, DB } from '../../db/schema.js';
import type { AppDeps } from '../../lib/deps.js';
import { conflict } from '../../lib/errors.js';
import { journeyWriteThen } from '../journey/journey.service.js';
import { appendBlock, claimSlot, nextFreeSlot } from './allocation.repository.js';
import { openConditions } from '../experiments/quotas.service.js';
import { toAssignment } from '../journey/assignment.mapper.js';
import { recordCondition } from './assignments.repository.js';
import { permutedBlock, stratumFor, weightedBlock } from './permuted-block.js';

const MAX_ATTEMPTS = 25;
const MAX_CLAIMS_PER_ATTEMPT = 20;

/** Rolls the transaction back so the whole attempt is retried. */
class RetryAttempt extends Error {}

/** Errors another process's concurrent write can cause; the attempt is simply retried. */
function isRetryable(error: unknown): boolean {
  if (error instanceof RetryAttempt) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  // PostgreSQL: unique violation, serialization failure, deadlock. SQLite: unique violation, busy.
  return ['23505', '40001', '40P01'].includes(code) || /^SQLITE_(CONSTRAINT_UNIQUE|BUSY)/.test(code);
}

/**
 * Assigns a condition once, at the assignment step (after the pre-survey), balanced by permuted blocks
 * within the baseline-intention stratum. A repeat returns the condition already assigned. With the journey after it.
 */
export async function assignCondition(
  deps: AppDeps,
  userId: string,
  experimentId: string,
): Promise<Assignment & { journey: Journey }> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    try {
      const { value, journey } = await journeyWriteThen(
        deps,
        { userId, experimentId, write: { kind: 'assignment' } },
        {
          repeat: async ({ state }) => state.facts.assignment,
          apply: async ({ trx, state, study, now }) => {
            // The assignment step comes after a baseline of 1-6 (7 is the ceiling exit).
            const stratum = state.records.baseline === null ? null : stratumFor(state.records.baseline);
            if (stratum === null) throw new Error('the assignment step was reached without a baseline of 1-6');
            const id = state.facts.assignment.id;
            const record = (condition: Condition) =>
              recordCondition(trx, { id, condition, stratum, at: now.toISOString() });
            const conditions = conditionIds(study);
            const block = () => permutedBlock(conditions, deps.random);
            const assigned = await claimAndAssign(
              trx,
              deps,
              { id, experimentId, stratum, conditions, block, now },
              record,
            );
            const condition = assigned.assigned_condition;
            return { result: assigned, event: { type: 'assigned', data: { condition, stratum } } };
          },
        },
      );
      return { ...toAssignment(value), journey };
    } catch (error) {
      if (!isRetryable(error)) throw error;
    }
  }
  throw conflict('Many participants are being assigned at this moment. Please try again.');
}

/**
 * One attempt, in the journey write's transaction: claim the lowest free slot of the stratum holding one of the
 * study's conditions whose quota cell is not full (docs/decisions/0061: a block's composition is fixed when its slots are written, from the
 * pinned version's conditions) and record it on the assignment.
 */
async function claimAndAssign(
  trx: Kysely<DB>,
  deps: AppDeps,
  input: {
    id: string;
    experimentId: string;
    stratum: string;
    conditions: Condition[];
    /** A new block's conditions in order. */
    block: () => Condition[];
    now: Date;
  },
  record: (condition: Condition) => Promise<AssignmentRow | undefined>,
): Promise<AssignmentRow> {
  const { id: assignmentId, experimentId, stratum, conditions } = input;
  const now = input.now.toISOString();
  // A full quota's cell is passed over (its slots stay free); none left: 409 QUOTA_FULL (docs/decisions/0077).
  const open = await openConditions(trx, experimentId, conditions, stratum);
  for (let i = 0; i < MAX_CLAIMS_PER_ATTEMPT; i++) {
    const slot = await nextFreeSlot(trx, experimentId, stratum, open);
    if (!slot) {
      await appendBlock(trx, {
        experimentId,
        stratum,
        conditions: input.block(),
        now,
        newId: deps.newId,
      });
      continue;
    }
    if (!(await claimSlot(trx, slot.id, assignmentId, now))) continue;
    const condition = conditions.find((c) => c === slot.condition);
    if (!condition) throw new Error(`allocation slot ${slot.id} holds an unknown condition`);
    // The journey write holds the participant's row, so nothing else can assign a condition meanwhile; were one
    // there, the retry rolls the transaction (the slot, the event) back.
    const assigned = await record(condition);
    if (!assigned) throw new RetryAttempt();
    return assigned;
  }
  throw new RetryAttempt();
}

/** Whether an error is another process's concurrent randomisation: the caller retries its whole write. */
export function isRandomisationRetry(error: unknown): boolean {
  return isRetryable(error);
}

/**
 * A flow's randomise step (issue 30), in the flow gate's transaction: weighted permuted blocks within the
 * participant's stratum, the lowest free slot claimed. A concurrent append makes it throw an error for which
 * `isRandomisationRetry` holds: the caller runs its write again.
 */
export async function assignFlowCondition(
  trx: Kysely<DB>,
  deps: AppDeps,
  input: { assignmentId: string; experimentId: string; weights: Record<string, number>; stratum: string; now: Date },
): Promise<AssignmentRow> {
  const conditions = Object.keys(input.weights).filter((c) => (input.weights[c] ?? 0) > 0);
  const record = (condition: Condition) =>
    recordCondition(trx, { id: input.assignmentId, condition, stratum: input.stratum, at: input.now.toISOString() });
  return claimAndAssign(
    trx,
    deps,
    {
      id: input.assignmentId,
      experimentId: input.experimentId,
      stratum: input.stratum,
      conditions,
      block: () => weightedBlock(input.weights, deps.random),
      now: input.now,
    },
    record,
  );
}

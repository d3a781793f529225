import type { Kysely } from 'kysely';
import { CONDITIONS, LIKERT_MAX, type Assignment, type Stratum } from '@studychat/contracts';
import type { AssignmentRow, DB } from '../../db/schema.js';
import type { AppDeps } from '../../lib/deps.js';
import { conflict } from '../../lib/errors.js';
import { baselineIntention } from '../surveys/survey-answers.js';
import { requireAssignment } from './access.js';
import { appendBlock, claimSlot, nextFreeSlot } from './allocation.repository.js';
import { toAssignment } from './assignment.mapper.js';
import { findAssignmentById, updateAssignmentIfUnset } from './assignments.repository.js';
import { permutedBlock, stratumFor } from './permuted-block.js';

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
 * Assigns a condition once, balanced by permuted blocks within the baseline-intention stratum.
 * Needs a baseline of 1-6; a repeat returns the condition already assigned.
 */
export async function assignCondition(deps: AppDeps, userId: string, experimentId: string): Promise<Assignment> {
  const { db } = deps.database;
  const row = await requireAssignment(db, userId, experimentId);
  if (row.assigned_condition !== null) return toAssignment(row);

  const intention = await baselineIntention(db, userId, experimentId);
  if (intention === null) {
    throw conflict('Please answer the intention question before a study condition can be assigned.');
  }
  const stratum = stratumFor(intention);
  if (stratum === null) {
    throw conflict(
      intention === LIKERT_MAX
        ? 'An intention of 7 completes the study without a condition; no condition is assigned.'
        : 'The recorded intention is not one that a condition can be assigned for.',
    );
  }

  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    try {
      const assigned = await db
        .transaction()
        .execute((trx) => claimAndAssign(trx, deps, row.id, experimentId, stratum));
      return toAssignment(assigned);
    } catch (error) {
      if (!isRetryable(error)) throw error;
    }
  }
  throw conflict('Many participants are being assigned at this moment. Please try again.');
}

/** One attempt, in one transaction: claim the lowest free slot and record it on the assignment. */
async function claimAndAssign(
  trx: Kysely<DB>,
  deps: AppDeps,
  assignmentId: string,
  experimentId: string,
  stratum: Stratum,
): Promise<AssignmentRow> {
  const current = await findAssignmentById(trx, assignmentId);
  if (!current) throw new RetryAttempt();
  if (current.assigned_condition !== null) return current;

  const now = deps.clock().toISOString();
  for (let i = 0; i < MAX_CLAIMS_PER_ATTEMPT; i++) {
    const slot = await nextFreeSlot(trx, experimentId, stratum);
    if (!slot) {
      await appendBlock(trx, {
        experimentId,
        stratum,
        conditions: permutedBlock(deps.random),
        now,
        newId: deps.newId,
      });
      continue;
    }
    if (!(await claimSlot(trx, slot.id, assignmentId, now))) continue;
    const condition = CONDITIONS.find((c) => c === slot.condition);
    if (!condition) throw new Error(`allocation slot ${slot.id} holds an unknown condition`);
    const written = await updateAssignmentIfUnset(trx, assignmentId, 'assigned_condition', {
      assigned_condition: condition,
      stratum,
      condition_assigned_at: now,
      updated_at: now,
    });
    // A concurrent request for the same participant won; give the slot back and return theirs.
    if (!written) throw new RetryAttempt();
    const assigned = await findAssignmentById(trx, assignmentId);
    if (!assigned) throw new RetryAttempt();
    return assigned;
  }
  throw new RetryAttempt();
}

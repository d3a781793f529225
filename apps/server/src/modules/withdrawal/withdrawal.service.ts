import { findExperiment } from '../experiments/experiments.service.js';
import type { WithdrawReply } from '@studychat/contracts';
import type { AppDeps } from '../../lib/deps.js';
import { notFound } from '../../lib/errors.js';
import { deleteParticipantData, lockAssignmentsByPid } from './withdrawal.repository.js';
import { markWithdrawn } from './withdrawn-ids.js';

/**
 * Withdrawal: deletes everything one Prolific id left in an experiment, in one transaction (all or
 * nothing). 404 for an unknown experiment or an id nobody in it carries. The id is remembered as withdrawn
 * (hashed), so it cannot start the experiment again (0026). The route writes the audit trace.
 */
export async function withdrawParticipant(
  deps: AppDeps,
  experimentId: string,
  prolificId: string,
): Promise<WithdrawReply> {
  const { database } = deps;
  if (!(await findExperiment(deps, experimentId))) throw notFound('Experiment not found');
  return database.db.transaction().execute(async (trx) => {
    // Locked first, before any row of theirs is deleted: their writes under way finish before the deletes read,
    // and later ones find nothing to write to (0074).
    const assignments = await lockAssignmentsByPid(trx, experimentId, prolificId);
    if (assignments.length === 0) throw notFound('No participant of this experiment has that Prolific id');
    const deleted = await deleteParticipantData(trx, experimentId, assignments);
    await markWithdrawn(trx, experimentId, prolificId, deps.clock().toISOString());
    return { prolificId, deleted: { participants: assignments.length, ...deleted } };
  });
}

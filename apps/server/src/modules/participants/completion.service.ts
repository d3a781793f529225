import { PATHWAY_CODE_KEY, type CompletionStatus, type Pathway } from '@studychat/contracts';
import type { AppDeps } from '../../lib/deps.js';
import { notFound } from '../../lib/errors.js';
import { codeOf, findExperimentById } from '../experiments/experiments.repository.js';
import { EXPERIMENT_NOT_FOUND } from '../experiments/experiments.service.js';
import { requireAssignment } from './access.js';
import { findAssignmentById, updateAssignmentIfUnset } from './assignments.repository.js';
import { assertPathwayEarned } from './eligibility.js';
import { toCompletionStatus } from './participants.service.js';

/**
 * Records completion once, for an earned pathway, with the server's own code for it (a code sent by
 * the client is never stored). A repeat returns the stored status unchanged.
 */
export async function recordCompletion(
  deps: AppDeps,
  userId: string,
  experimentId: string,
  pathway: Pathway,
): Promise<CompletionStatus> {
  const { db } = deps.database;
  const experiment = await findExperimentById(db, experimentId);
  if (!experiment) throw notFound(EXPERIMENT_NOT_FOUND);
  const row = await requireAssignment(db, userId, experimentId);
  if (row.completed_at !== null) return toCompletionStatus(row);
  await assertPathwayEarned(db, userId, experimentId, pathway);

  const now = deps.clock().toISOString();
  await updateAssignmentIfUnset(db, row.id, 'completed_at', {
    completion_pathway: pathway,
    completion_code: codeOf(experiment, PATHWAY_CODE_KEY[pathway]),
    completed_at: now,
    intervention_completed_timestamp: now,
    updated_at: now,
  });
  return toCompletionStatus(await findAssignmentById(db, row.id));
}

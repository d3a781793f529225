import type { CompletionStatus, Pathway } from '@studychat/contracts';
import type { AppDeps } from '../../lib/deps.js';
import { notFound } from '../../lib/errors.js';
import { findCompletionCode } from '../experiments/completion-codes.repository.js';
import { findExperimentById } from '../experiments/experiments.repository.js';
import { EXPERIMENT_NOT_FOUND } from '../experiments/experiments.service.js';
import type { SessionCheck } from '../auth/session-check.js';
import { journeyWrite } from '../journey/journey.service.js';
import { toCompletionStatus } from './assignment.mapper.js';
import { updateAssignmentIfUnset } from './assignments.repository.js';

/**
 * Records completion once, at the pathway's completion step (the exits after the entry choice and the
 * baseline; `complete` after the post-survey), with the server's own code for it (a code sent by the
 * client is never stored). "Intervention completed" is set for `complete` only. A repeat, whatever
 * pathway it asks for, returns the stored status unchanged.
 */
export async function recordCompletion(
  deps: AppDeps,
  userId: string,
  experimentId: string,
  pathway: Pathway,
  session?: SessionCheck,
): Promise<CompletionStatus> {
  if (!(await findExperimentById(deps.database.db, experimentId))) throw notFound(EXPERIMENT_NOT_FOUND);
  const row = await journeyWrite(
    deps,
    { userId, experimentId, write: { kind: 'completion', pathway }, session },
    {
      repeat: async ({ state }) => state.facts.assignment,
      apply: async ({ trx, state, now }) => {
        const iso = now.toISOString();
        const code = await findCompletionCode(trx, experimentId, pathway);
        const written = await updateAssignmentIfUnset(trx, state.facts.assignment.id, 'completed_at', {
          completion_pathway: pathway,
          completion_code: code,
          completed_at: iso,
          intervention_completed_timestamp: pathway === 'complete' ? iso : null,
          updated_at: iso,
        });
        return { result: written ?? state.facts.assignment, event: { type: 'completed', data: { pathway } } };
      },
    },
  );
  return toCompletionStatus(row);
}

import type { CompletionStatus, Pathway } from '@studychat/contracts';
import type { AppDeps } from '../../lib/deps.js';
import { experimentOrParticipationMissing } from '../experiments/experiments.service.js';
import { journeyWrite } from '../journey/journey.service.js';
import { toCompletionStatus } from '../journey/assignment.mapper.js';
import { recordCompletionOf } from './assignments.repository.js';
import { afterPathwayRecorded } from '../prolific/prolific.service.js';

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
): Promise<CompletionStatus> {
  const row = await journeyWrite(
    deps,
    {
      userId,
      experimentId,
      write: { kind: 'completion', pathway },
      notJoined: experimentOrParticipationMissing(deps, experimentId),
    },
    {
      repeat: async ({ state }) => state.facts.assignment,
      apply: async ({ trx, state, now }) => {
        const written = await recordCompletionOf(trx, {
          id: state.facts.assignment.id,
          experimentId,
          pathway,
          at: now.toISOString(),
        });
        // The row is locked and its facts say no completion yet: the update found it.
        if (!written) throw new Error('completion could not be recorded');
        return { result: written, event: { type: 'completed', data: { pathway } } };
      },
    },
  );
  // Outside the participant's transaction and reply: the server completes their Prolific submission itself
  // (docs/decisions/0083-prolific-api.md); the redirect link the browser follows stays as the spec says.
  afterPathwayRecorded(deps, userId, experimentId);
  return toCompletionStatus(row);
}

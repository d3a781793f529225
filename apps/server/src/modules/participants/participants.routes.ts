import type { FastifyInstance } from 'fastify';
import { participantRoutes } from '@studychat/contracts';
import type { AppContext } from '../../app.js';
import { route } from '../../lib/route.js';
import { caller } from '../../plugins/auth.js';
import { recordCompletion } from './completion.service.js';
import {
  createAssignment,
  getAssignment,
  getCompletionStatus,
  giveConsent,
  updateProlificId,
} from './participants.service.js';
import { assignCondition } from './randomisation.service.js';
import { JourneyAfter } from '../journey/journey-after.js';
import { withJourney } from '../journey/journey.service.js';

/** The participant's own study records; body and path ids must be the caller's (admins excepted). */
export function registerParticipantRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { deps } = ctx;
  const user = { guards: [ctx.guards.requireUser] };
  // Journey writes: their facts read checks the caller's session too (docs/decisions/0058).
  const folded = { guards: [ctx.guards.requireUserFolded] };

  // Joining, consent and the condition lead to the next page: their replies carry the journey (0068); consent's
  // and the condition's come from their write's own facts (0070), joining's is read after it.
  route(app, participantRoutes.create, folded, async (request) => {
    const assignment = await createAssignment(deps, caller(request), request.body);
    return withJourney(deps, assignment.user_id, assignment.experiment_id, assignment);
  });
  route(app, participantRoutes.get, user, (request) =>
    getAssignment(deps, caller(request), request.params.userId, request.params.experimentId),
  );
  route(app, participantRoutes.consent, folded, async (request) => {
    const { userId, session } = caller(request);
    const after = new JourneyAfter();
    const assignment = await giveConsent(deps, userId, request.body.experimentId, session, after);
    return { ...assignment, journey: after.journey };
  });
  // The assignment's read checks the session too (0058).
  route(app, participantRoutes.prolificId, folded, (request) => {
    const { userId, session } = caller(request);
    return updateProlificId(deps, userId, request.body.experimentId, request.body.prolificId, session);
  });
  route(app, participantRoutes.assignCondition, folded, async (request) => {
    const { userId, session } = caller(request);
    const after = new JourneyAfter();
    const assignment = await assignCondition(deps, userId, request.body.experimentId, session, after);
    return { ...assignment, journey: after.journey };
  });
  route(app, participantRoutes.completion, folded, (request) =>
    recordCompletion(
      deps,
      caller(request).userId,
      request.body.experimentId,
      request.body.pathway,
      caller(request).session,
    ),
  );
  route(app, participantRoutes.status, user, (request) =>
    getCompletionStatus(deps, caller(request).userId, request.params.experimentId),
  );
}

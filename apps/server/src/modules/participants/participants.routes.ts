import type { FastifyInstance } from 'fastify';
import { participantRoutes, studyRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import { caller } from '../../plugins/auth.js';
import { recordCompletion } from './completion.service.js';
import {
  createAssignment,
  getAdmission,
  getAssignment,
  getCompletionStatus,
  giveConsent,
  participantStudyView,
  updateProlificId,
} from './participants.service.js';
import { assignCondition } from './randomisation.service.js';
import { getJourney } from '../journey/journey.service.js';

/** The participant's own study records; body and path ids must be the caller's (an admin may read, never write). */
export function registerParticipantRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { deps } = ctx;
  const user = { guards: [ctx.guards.requireUser] };

  // Joining, consent and the condition lead to the next page: their replies carry the journey (0068).
  route(app, participantRoutes.create, user, async (request) => {
    const assignment = await createAssignment(deps, caller(request), request.body, ctx.config.chatLimits);
    // A study written as a flow has its own view (issue 30): the browser reads it at /flow/:experimentId.
    if (await deps.flows(assignment.experiment_id)) return { ...assignment, flow: true };
    return { ...assignment, journey: await getJourney(deps, assignment.user_id, assignment.experiment_id) };
  });
  route(app, participantRoutes.get, user, (request) =>
    getAssignment(deps, caller(request), request.params.userId, request.params.experimentId),
  );
  route(app, participantRoutes.consent, user, (request) =>
    giveConsent(deps, caller(request).userId, request.body.experimentId),
  );
  route(app, participantRoutes.prolificId, user, (request) =>
    updateProlificId(deps, caller(request).userId, request.body.experimentId, request.body.prolificId),
  );
  route(app, participantRoutes.assignCondition, user, (request) =>
    assignCondition(deps, caller(request).userId, request.body.experimentId),
  );
  route(app, participantRoutes.completion, user, (request) =>
    recordCompletion(deps, caller(request).userId, request.body.experimentId, request.body.pathway),
  );
  // Public: the landing page asks before offering the login, so a study login is not spent on a study that
  // admits no one (docs/decisions/0073).
  route(app, participantRoutes.admission, {}, (request) =>
    getAdmission(deps, ctx.config.chatLimits, request.params.experimentId),
  );
  route(app, studyRoutes.participantView, user, (request) => {
    const { userId, role } = caller(request);
    return participantStudyView(deps, request.params.experimentId, role === 'participant' ? userId : null);
  });
  route(app, participantRoutes.status, user, (request) =>
    getCompletionStatus(deps, caller(request).userId, request.params.experimentId),
  );
}

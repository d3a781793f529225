import type { FastifyInstance } from 'fastify';
import { surveyRoutes } from '@studychat/contracts';
import type { AppContext } from '../../app.js';
import { route } from '../../lib/route.js';
import { caller } from '../../plugins/auth.js';
import { withJourney } from '../journey/journey.service.js';
import { submitSurvey } from './surveys.service.js';

export function registerSurveyRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The journey write's facts read checks the session too (requireUserFolded, docs/decisions/0058).
  route(app, surveyRoutes.submit, { guards: [ctx.guards.requireUserFolded] }, async (request) => {
    const reply = await submitSurvey(ctx.deps, caller(request), request.body);
    // The entry and baseline answers lead to the next page: the reply carries the journey (0068). The pre- and
    // post-survey pages write again before they move on, so theirs would be read for nothing.
    const { survey_type: type, user_id: userId, experiment_id: experimentId } = request.body;
    return type === 'entry' || type === 'baseline' ? withJourney(ctx.deps, userId, experimentId, reply) : reply;
  });
}

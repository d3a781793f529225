import type { FastifyInstance } from 'fastify';
import { surveyRoutes } from '@studychat/contracts';
import type { AppContext } from '../../app.js';
import { route } from '../../lib/route.js';
import { caller } from '../../plugins/auth.js';
import { JourneyAfter } from '../journey/journey-after.js';
import { submitSurvey } from './surveys.service.js';

export function registerSurveyRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The journey write's facts read checks the session too (requireUserFolded, docs/decisions/0058).
  route(app, surveyRoutes.submit, { guards: [ctx.guards.requireUserFolded] }, async (request) => {
    // The entry and baseline answers lead to the next page: the reply carries the journey (0068), from the write's
    // own facts (0070). The pre- and post-survey pages write again before they move on.
    const type = request.body.survey_type;
    const after = type === 'entry' || type === 'baseline' ? new JourneyAfter() : undefined;
    const reply = await submitSurvey(ctx.deps, caller(request), request.body, after);
    return after ? { ...reply, journey: after.journey } : reply;
  });
}

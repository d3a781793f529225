import type { FastifyInstance } from 'fastify';
import { surveyRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import { caller } from '../../plugins/auth.js';
import { submitSurvey } from './surveys.service.js';

export function registerSurveyRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The entry and baseline answers lead to the next page: their replies carry the journey (0068). The pre- and
  // post-survey pages write again before they move on.
  route(app, surveyRoutes.submit, { guards: [ctx.guards.requireUser] }, (request) =>
    submitSurvey(ctx.deps, caller(request), request.body),
  );
}

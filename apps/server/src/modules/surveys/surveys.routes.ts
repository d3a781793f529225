import type { FastifyInstance } from 'fastify';
import { surveyRoutes } from '@studychat/contracts';
import type { AppContext } from '../../app.js';
import { route } from '../../lib/route.js';
import { caller } from '../../plugins/auth.js';
import { submitSurvey } from './surveys.service.js';

export function registerSurveyRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The journey write's facts read checks the session too (requireUserFolded, docs/decisions/0058).
  route(app, surveyRoutes.submit, { guards: [ctx.guards.requireUserFolded] }, (request) =>
    submitSurvey(ctx.deps, caller(request), request.body),
  );
}

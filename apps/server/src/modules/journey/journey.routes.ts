import type { FastifyInstance } from 'fastify';
import { journeyRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import { caller } from '../../plugins/auth.js';
import { getJourney } from './journey.service.js';
import { finishSection, openSection } from './sections.service.js';

/** The caller's own journey: the one read for the browser, and the server-timed sections. */
export function registerJourneyRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { deps } = ctx;
  const user = { guards: [ctx.guards.requireUser] };

  route(app, journeyRoutes.get, user, (request) =>
    getJourney(deps, caller(request).userId, request.params.experimentId),
  );
  route(app, journeyRoutes.openSection, user, (request) => openSection(deps, caller(request).userId, request.body));
  route(app, journeyRoutes.finishSection, user, (request) => finishSection(deps, caller(request).userId, request.body));
}

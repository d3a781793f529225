import type { FastifyInstance } from 'fastify';
import { journeyRoutes } from '@studychat/contracts';
import type { AppContext } from '../../app.js';
import { route } from '../../lib/route.js';
import { caller } from '../../plugins/auth.js';
import { JourneyAfter } from './journey-after.js';
import { getJourney } from './journey.service.js';
import { finishSection, openSection } from './sections.service.js';

/** The caller's own journey: the one read for the browser, and the server-timed sections. */
export function registerJourneyRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { deps } = ctx;
  // The facts read checks the caller's session too (requireUserFolded, docs/decisions/0058).
  const user = { guards: [ctx.guards.requireUserFolded] };

  route(app, journeyRoutes.get, user, (request) => {
    const { userId, session } = caller(request);
    return getJourney(deps, userId, request.params.experimentId, session);
  });
  route(app, journeyRoutes.openSection, user, (request) => {
    const { userId, session } = caller(request);
    return openSection(deps, userId, request.body, session);
  });
  route(app, journeyRoutes.finishSection, user, async (request) => {
    const { userId, session } = caller(request);
    const after = new JourneyAfter();
    const reply = await finishSection(deps, userId, request.body, session, after);
    // The last section's finish leads to the chat page: the reply carries the journey (0068), from the write's
    // own facts (0070).
    return reply.next ? reply : { ...reply, journey: after.journey };
  });
}

import type { FastifyInstance } from 'fastify';
import { experimentRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import { getChatLimits, updateChatLimits } from './chat-limits.service.js';

/** An experiment's chat limits and budget. */
export function registerChatLimitRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { deps, guards, config } = ctx;
  // Read by admins and analysts; changed by admins only, recorded in the audit log.
  const admin = {
    guards: [guards.requireAdmin],
    audit: {
      action: 'experiment.chat_limits.update',
      target: (request: { params: { id: string } }) => ({ type: 'experiment', id: request.params.id }),
    },
  };
  route(app, experimentRoutes.chatLimits, { guards: [guards.requireStaff] }, (request) =>
    getChatLimits(deps, config.chatLimits, request.params.id),
  );
  route(app, experimentRoutes.updateChatLimits, admin, (request) =>
    updateChatLimits(deps, config.chatLimits, request.params.id, request.body.overrides),
  );
}

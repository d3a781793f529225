import type { FastifyInstance } from 'fastify';
import { experimentRoutes } from '@studychat/contracts';
import type { AppContext } from '../../app.js';
import { route } from '../../lib/route.js';
import { getChatLimits, updateChatLimits } from './chat-limits.service.js';

/** An experiment's chat limits and budget (admin only). */
export function registerChatLimitRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { deps, guards, config } = ctx;
  const admin = { guards: [guards.requireAdmin] };
  route(app, experimentRoutes.chatLimits, admin, (request) =>
    getChatLimits(deps, config.chatLimits, request.params.id),
  );
  route(app, experimentRoutes.updateChatLimits, admin, (request) =>
    updateChatLimits(deps, config.chatLimits, request.params.id, request.body.overrides),
  );
}

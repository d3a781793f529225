import type { FastifyInstance } from 'fastify';
import { adminRoutes } from '@studychat/contracts';
import type { AppContext } from '../../app.js';
import { route } from '../../lib/route.js';

/** Which chat model answers: the admin area shows a banner when it is the scripted offline model. */
export function registerSystemRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { provider, model } = ctx.config.llm;
  route(app, adminRoutes.system, { guards: [ctx.guards.requireAdmin] }, async () => ({
    llmProvider: provider,
    llmModel: model,
    scripted: provider === 'scripted',
  }));
}

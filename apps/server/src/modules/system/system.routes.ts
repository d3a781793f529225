import type { FastifyInstance } from 'fastify';
import { adminRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import { checkModel, createCheckModel } from '../../llm/model-check.js';
import { budgetAlerts } from '../chat/chat-limits.service.js';
import { recordModelCheck } from './model-check-record.js';

/**
 * Which chat model answers (the admin area shows a banner when it is the scripted offline model),
 * experiments near or over their chat budget, and a check that the configured model works.
 */
export function registerSystemRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { provider, model } = ctx.config.llm;
  // Which model answers: admins and analysts; the model check (a paid call) for admins only.
  const admin = { guards: [ctx.guards.requireAdmin] };
  route(app, adminRoutes.system, { guards: [ctx.guards.requireStaff] }, async () => ({
    llmProvider: provider,
    llmModel: model,
    scripted: provider === 'scripted',
    budgetAlerts: await budgetAlerts(ctx.deps, ctx.config.chatLimits),
  }));
  route(app, adminRoutes.modelCheck, admin, async () =>
    recordModelCheck(ctx.deps, await checkModel(createCheckModel(ctx.config.llm), ctx.config.llm)),
  );
}

import type { FastifyInstance } from 'fastify';
import { costEstimateRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import { getCostEstimate } from './cost-estimate.service.js';

/** The expected chat cost before launch (admins and analysts: a read). */
export function registerCostEstimateRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, costEstimateRoutes.get, { guards: [ctx.guards.requireStaff] }, (request) =>
    getCostEstimate(ctx.deps, ctx.config, request.params.id, request.query.sample),
  );
}

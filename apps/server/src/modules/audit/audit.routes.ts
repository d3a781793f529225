import type { FastifyInstance } from 'fastify';
import { securityRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import { caller } from '../../plugins/auth.js';
import { hiddenExperimentIds } from '../members/members.service.js';
import { listAudit } from './audit.service.js';

/** The audit log of admin actions (admins only), without the experiments the admin may not see (0087). */
export function registerAuditRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, securityRoutes.auditLog, { guards: [ctx.guards.requireAdmin] }, async (request) =>
    listAudit(ctx.deps, request.query, [...(await hiddenExperimentIds(ctx.deps, caller(request).userId))]),
  );
}

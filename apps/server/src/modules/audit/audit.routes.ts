import type { FastifyInstance } from 'fastify';
import { securityRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import { listAudit } from './audit.service.js';

/** The audit log of admin actions (admins only). */
export function registerAuditRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, securityRoutes.auditLog, { guards: [ctx.guards.requireAdmin] }, (request) =>
    listAudit(ctx.deps, request.query),
  );
}

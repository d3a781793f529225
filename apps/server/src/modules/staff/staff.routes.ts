import type { FastifyInstance } from 'fastify';
import { staffRoutes } from '@studychat/contracts';
import type { Guards } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import { caller } from '../../plugins/auth.js';
import type { AuthContext } from '../auth/auth.service.js';
import { addStaff, listStaff, removeStaff, resetStaffTotp, setStaffRole } from './staff.service.js';

/** The admin area's people, for admins only; the service audits each change. */
export function registerStaffRoutes(app: FastifyInstance, ctx: AuthContext, guards: Guards): void {
  const admin = { guards: [guards.requireAdmin] };
  route(app, staffRoutes.list, admin, () => listStaff(ctx));
  route(app, staffRoutes.create, admin, (request) => addStaff(ctx, caller(request), request.body));
  route(app, staffRoutes.setRole, admin, (request) =>
    setStaffRole(ctx, caller(request), request.params.id, request.body.role),
  );
  route(app, staffRoutes.remove, admin, (request) => removeStaff(ctx, caller(request), request.params.id));
  route(app, staffRoutes.resetTotp, admin, (request) => resetStaffTotp(ctx, caller(request), request.params.id));
}

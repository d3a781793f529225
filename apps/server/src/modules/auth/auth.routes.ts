import type { FastifyInstance } from 'fastify';
import { authRoutes } from '@studychat/contracts';
import { route } from '../../lib/route.js';
import type { Guards } from '../../lib/context.js';
import { caller } from '../../plugins/auth.js';
import { login, logout, type AuthContext } from './auth.service.js';

export function registerAuthRoutes(app: FastifyInstance, ctx: AuthContext, guards: Guards): void {
  route(app, authRoutes.login, {}, (request) => login(ctx, request.body, request.ip));

  route(app, authRoutes.logout, { guards: [guards.requireUser] }, async (request) => {
    await logout(ctx, caller(request).sessionId);
    return { ok: true as const };
  });
}

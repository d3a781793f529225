import type { FastifyInstance } from 'fastify';
import { authRoutes } from '@studychat/contracts';
import { route } from '../../lib/route.js';
import { caller, type Guards } from '../../plugins/auth.js';
import { login, logout, type AuthContext } from './auth.service.js';

export function registerAuthRoutes(app: FastifyInstance, ctx: AuthContext, guards: Guards): void {
  route(app, authRoutes.login, {}, (request) => login(ctx, request.body, request.ip));

  // The revocation checks the session too, in one statement on PostgreSQL (0058).
  route(app, authRoutes.logout, { guards: [guards.requireUserFolded] }, async (request) => {
    const { sessionId, session } = caller(request);
    await logout(ctx, sessionId, session);
    return { ok: true as const };
  });
}

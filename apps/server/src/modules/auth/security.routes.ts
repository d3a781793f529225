import type { FastifyInstance } from 'fastify';
import { securityRoutes } from '@studychat/contracts';
import { route } from '../../lib/route.js';
import type { Guards } from '../../lib/context.js';
import { caller } from '../../plugins/auth.js';
import type { AuthContext } from './auth.service.js';
import { disableTotpFor, enableTotpFor, logoutEverywhere, securityStatus, startTotpSetup } from './security.service.js';

/** The caller's own account security: two-factor set-up (open to sessions waiting for it) and logging out everywhere. */
export function registerSecurityRoutes(app: FastifyInstance, ctx: AuthContext, guards: Guards): void {
  const session = { guards: [guards.requireSession] };
  const totp = (action: string) => ({ ...session, audit: { action } });

  route(app, securityRoutes.status, session, (request) => securityStatus(ctx, caller(request).userId));
  route(app, securityRoutes.totpSetup, totp('totp.setup'), (request) => startTotpSetup(ctx, caller(request).userId));
  route(app, securityRoutes.totpEnable, totp('totp.enable'), (request) =>
    enableTotpFor(ctx, caller(request).userId, request.body.code),
  );
  route(app, securityRoutes.totpDisable, totp('totp.disable'), (request) =>
    disableTotpFor(ctx, caller(request).userId, request.body.code),
  );
  route(app, securityRoutes.logoutAll, totp('sessions.logout_all'), (request) =>
    logoutEverywhere(ctx, caller(request).userId),
  );
}

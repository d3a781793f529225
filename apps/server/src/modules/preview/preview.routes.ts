import type { FastifyInstance } from 'fastify';
import { previewRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import { caller } from '../../plugins/auth.js';
import type { AuthContext } from '../auth/auth.service.js';
import { createPreview, redeemPreview } from './preview.service.js';

/** "Preview as participant": admins create a test participant and its one-time link; the link signs in once. */
export function registerPreviewRoutes(app: FastifyInstance, ctx: AppContext, auth: AuthContext): void {
  route(
    app,
    previewRoutes.create,
    {
      guards: [ctx.guards.requireAdmin],
      audit: {
        action: 'experiment.preview.create',
        target: (request) => ({ type: 'experiment', id: request.params.id }),
        details: (request, created) => ({
          condition: request.body.condition,
          test_user_id: created.user_id,
          assignment_id: created.assignment_id,
        }),
      },
    },
    (request) => createPreview(auth, caller(request).userId, request.params.id, request.body.condition),
  );
  // No guard: the one-time token is the credential (a browser already signed in is told to use a private window).
  route(app, previewRoutes.redeem, {}, (request) => redeemPreview(auth, request.body.token));
}

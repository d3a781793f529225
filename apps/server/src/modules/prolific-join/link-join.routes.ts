import type { FastifyInstance } from 'fastify';
import { prolificJoinRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import { caller } from '../../plugins/auth.js';
import type { AuthContext } from '../auth/auth.service.js';
import { joinByLink, linkJoinSetting, setLinkJoinSetting } from './link-join.service.js';

/** Joining by Prolific's study link alone: the experiment's setting (staff read, admins set) and the landing's join. */
export function registerProlificJoinRoutes(app: FastifyInstance, ctx: AppContext, auth: AuthContext): void {
  route(app, prolificJoinRoutes.setting, { guards: [ctx.guards.requireStaff] }, (request) =>
    linkJoinSetting(auth, request.params.id),
  );
  route(
    app,
    prolificJoinRoutes.setSetting,
    {
      guards: [ctx.guards.requireAdmin],
      audit: {
        action: 'prolific.link_join.set',
        target: (request) => ({ type: 'experiment', id: request.params.id }),
        details: (request) => ({ enabled: request.body.enabled }),
      },
    },
    (request) => setLinkJoinSetting(auth, caller(request).userId, request.params.id, request.body.enabled),
  );
  // No guard: the Prolific ids are the credential, and only with the experiment's setting on.
  route(app, prolificJoinRoutes.join, {}, (request) => joinByLink(auth, ctx.config.chatLimits, request.body));
}

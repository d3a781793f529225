import { experimentRoutes } from '@studychat/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import { withdrawParticipant } from './withdrawal.service.js';

/** Withdrawal (admins only): the audit log keeps who deleted which Prolific id's data, and how much. */
export function registerWithdrawalRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(
    app,
    experimentRoutes.withdraw,
    {
      guards: [ctx.guards.requireAdmin],
      audit: {
        action: 'participant.withdraw',
        target: (request) => ({ type: 'experiment', id: request.params.id }),
        details: (_request, result) => ({ prolificId: result.prolificId, ...result.deleted }),
      },
    },
    (request) => withdrawParticipant(ctx.deps, request.params.id, request.body.prolificId),
  );
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { prolificPayRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import { caller } from '../../plugins/auth.js';
import { listBonuses, payBonus, prepareBonus } from './bonus.service.js';
import type { ProlificRuntime } from './prolific.service.js';
import { rejectSubmissions } from './reject.service.js';

/**
 * Review and pay on Prolific (docs/decisions/0089): rejecting with Prolific's categories, and bonuses through the
 * ledger. Admins only (and, on a members-only experiment, its editors: plugins/experiment-access.ts); every change
 * audited, and a Prolific call that failed audited too (the route's own audit records successes only).
 */
export function registerProlificPayRoutes(app: FastifyInstance, ctx: AppContext, runtime: ProlificRuntime): void {
  const admin = { guards: [ctx.guards.requireAdmin] };
  const target = (request: { params: { id: string } }) => ({ type: 'experiment', id: request.params.id });
  const auditFailure = (request: FastifyRequest, action: string, experimentId: string) => (details: object) =>
    app.audit(request, { action, target: { type: 'experiment', id: experimentId }, details: { ...details } });

  route(
    app,
    prolificPayRoutes.reject,
    {
      ...admin,
      audit: {
        action: 'prolific.submissions.reject',
        target,
        details: (request, reply) => ({
          category: request.body.category,
          rejected: reply.rejected,
          failed: reply.failed.map((f) => f.prolificPid),
        }),
      },
    },
    (request) =>
      rejectSubmissions(runtime, {
        experimentId: request.params.id,
        body: request.body,
        auditFailure: auditFailure(request, 'prolific.submissions.reject.failed', request.params.id),
      }),
  );
  route(app, prolificPayRoutes.bonuses, admin, (request) => listBonuses(runtime, request.params.id));
  route(
    app,
    prolificPayRoutes.prepareBonus,
    {
      ...admin,
      audit: {
        action: 'prolific.bonus.prepare',
        target,
        details: (request, reply) => ({
          batchId: reply.id,
          source: reply.source,
          lines: reply.lines.length,
          totalCents: reply.totalCents,
          reason: reply.reason,
        }),
      },
    },
    (request) => prepareBonus(runtime, request.params.id, caller(request).userId, request.body),
  );
  route(
    app,
    prolificPayRoutes.payBonus,
    {
      ...admin,
      audit: {
        action: 'prolific.bonus.pay',
        target,
        details: (request, reply) => ({
          batchId: reply.id,
          status: reply.status,
          lines: reply.lines.length,
          totalCents: reply.totalCents,
          prolificBulkId: reply.prolificBulkId,
          confirmRepeats: request.body.confirmRepeats === true,
          confirmNotPaid: request.body.confirmNotPaid === true,
        }),
      },
    },
    (request) =>
      payBonus(runtime, {
        experimentId: request.params.id,
        batchId: request.params.batchId,
        userId: caller(request).userId,
        body: request.body,
        auditFailure: auditFailure(request, 'prolific.bonus.pay.failed', request.params.id),
      }),
  );
}

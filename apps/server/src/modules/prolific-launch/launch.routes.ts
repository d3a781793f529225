import type { FastifyInstance } from 'fastify';
import { prolificLaunchRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import { caller } from '../../plugins/auth.js';
import { prolificRuntimeOf } from '../prolific/prolific.service.js';
import { syncSubmissions } from '../prolific/submissions-sync.service.js';
import { computeChecklist, type LaunchContext } from './checklist.service.js';
import { launchOnProlific, publishOnProlific } from './launch.service.js';

/**
 * Launch on Prolific from an experiment (docs/decisions/0090-prolific-launch.md): the checklist (staff read it),
 * the draft study, publishing and reading the submissions back (admins; editors of a members-only experiment).
 * Registered after the prolific module's routes, whose runtime it uses.
 */
export function registerProlificLaunchRoutes(app: FastifyInstance, ctx: AppContext): void {
  const runtime = prolificRuntimeOf(ctx.deps);
  if (!runtime) throw new Error('register the prolific routes before the launch routes');
  const launchCtx: LaunchContext = {
    deps: ctx.deps,
    runtime,
    defaultBudgetUsd: ctx.config.chatLimits.budgetUsd,
    publicUrl: ctx.config.publicUrl,
    pepper: ctx.config.passwordPepper,
  };
  const admin = { guards: [ctx.guards.requireAdmin] };
  const target = (request: { params: { id: string } }) => ({ type: 'experiment', id: request.params.id });

  route(app, prolificLaunchRoutes.checklist, { guards: [ctx.guards.requireStaff] }, (request) =>
    computeChecklist(launchCtx, request.params.id),
  );
  route(
    app,
    prolificLaunchRoutes.launch,
    {
      ...admin,
      audit: {
        action: 'prolific.study.launch',
        target,
        details: (request, reply) => ({
          studyId: reply.studyId,
          places: request.body.places,
          rewardMinor: request.body.rewardMinor,
          estimatedMinutes: request.body.estimatedMinutes,
          devices: request.body.devices,
          pathways: request.body.pathways,
          credentials: reply.credentials,
        }),
      },
    },
    (request) => launchOnProlific(launchCtx, request.params.id, caller(request).userId, request.body),
  );
  route(
    app,
    prolificLaunchRoutes.publish,
    {
      ...admin,
      audit: { action: 'prolific.study.publish', target, details: (_request, reply) => ({ studyId: reply.studyId }) },
    },
    (request) => publishOnProlific(launchCtx, request.params.id),
  );
  route(
    app,
    prolificLaunchRoutes.sync,
    {
      ...admin,
      audit: {
        action: 'prolific.submissions.sync',
        target,
        details: (_request, reply) => ({ read: reply.read, matched: reply.matched }),
      },
    },
    (request) => syncSubmissions(runtime, request.params.id),
  );
}

import type { FastifyInstance } from 'fastify';
import { pilotRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import { caller } from '../../plugins/auth.js';
import type { AuthContext } from '../auth/auth.service.js';
import { getPilotRun, listPilots, startPilot, type PilotAppBuilder, type PilotContext } from './pilot.service.js';

/** Pilot runs with simulated participants: admins start one; admins and analysts read the reports. */
export function registerPilotRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  auth: AuthContext,
  buildPilotApp: PilotAppBuilder,
): void {
  const pilot: PilotContext = { deps: ctx.deps, config: ctx.config, auth, buildPilotApp, running: new Set() };
  route(
    app,
    pilotRoutes.start,
    {
      guards: [ctx.guards.requireAdmin],
      audit: {
        action: 'experiment.pilot.run',
        target: (request) => ({ type: 'experiment', id: request.params.id }),
        details: (request, run) => ({
          pilot_id: run.id,
          participants: request.body.participants,
          target_sample: request.body.target_sample,
          seed: run.report.seed,
        }),
      },
    },
    (request) => startPilot(pilot, caller(request), request.params.id, request.body),
  );
  route(app, pilotRoutes.list, { guards: [ctx.guards.requireStaff] }, (request) =>
    listPilots(ctx.deps, request.params.id),
  );
  route(app, pilotRoutes.get, { guards: [ctx.guards.requireStaff] }, (request) =>
    getPilotRun(ctx.deps, request.params.id, request.params.pilotId),
  );
}

import type { FastifyInstance } from 'fastify';
import { waveRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import { caller } from '../../plugins/auth.js';
import { prolificRuntimeOf } from '../prolific/prolific.service.js';
import { makeParticipantGroup, participantGroup } from './participant-group.service.js';
import { setWave, waveSetting } from './waves.service.js';

/**
 * Follow-up waves (docs/decisions/0091): which experiment this one follows (staff read, admins set), and the
 * Prolific participant group of its completers. Registered after the prolific module's routes, whose runtime it uses.
 */
export function registerWaveRoutes(app: FastifyInstance, ctx: AppContext): void {
  const runtime = prolificRuntimeOf(ctx.deps);
  if (!runtime) throw new Error('register the prolific routes before the wave routes');
  const target = (request: { params: { id: string } }) => ({ type: 'experiment', id: request.params.id });
  const who = (request: Parameters<typeof caller>[0]) => {
    const { userId, role } = caller(request);
    return { userId, role };
  };

  route(app, waveRoutes.setting, { guards: [ctx.guards.requireStaff] }, (request) =>
    waveSetting(ctx.deps, request.params.id, who(request)),
  );
  route(
    app,
    waveRoutes.setSetting,
    {
      guards: [ctx.guards.requireAdmin],
      audit: {
        action: 'experiment.wave.set',
        target,
        details: (request) => ({ follows: request.body.follows_experiment_id }),
      },
    },
    (request) => setWave(ctx.deps, request.params.id, who(request), request.body.follows_experiment_id),
  );
  route(app, waveRoutes.group, { guards: [ctx.guards.requireStaff] }, (request) =>
    participantGroup(runtime, request.params.id),
  );
  route(
    app,
    waveRoutes.makeGroup,
    {
      guards: [ctx.guards.requireAdmin],
      audit: {
        action: 'prolific.participant_group',
        target,
        details: (request, reply) => ({
          pathways: request.body.pathways,
          groupId: reply.group.groupId,
          added: reply.added,
        }),
      },
    },
    (request) => makeParticipantGroup(runtime, request.params.id, request.body),
  );
}

import type { FastifyInstance } from 'fastify';
import { memberRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import { caller } from '../../plugins/auth.js';
import { addMember, listMembers, removeMember, setMemberRole } from './members.service.js';

/**
 * The people on an experiment: staff read them (as far as they see the experiment), admins change them. Who may
 * act on which experiment (owner only for changes) is the experiment access check's (plugins/experiment-access.ts).
 */
export function registerMemberRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { deps, guards } = ctx;
  const experiment = (id: string) => ({ type: 'experiment', id });
  const who = (request: Parameters<typeof caller>[0]) => {
    const auth = caller(request);
    return { userId: auth.userId, role: auth.role };
  };

  route(app, memberRoutes.list, { guards: [guards.requireStaff] }, (request) =>
    listMembers(deps, request.params.id, who(request)),
  );
  route(
    app,
    memberRoutes.add,
    {
      guards: [guards.requireAdmin],
      audit: {
        action: 'experiment.member.add',
        target: (request) => experiment(request.params.id),
        details: (request, result) => ({
          user_id: result.members.find((m) => m.email.toLowerCase() === request.body.email.toLowerCase())?.user_id,
          role: request.body.role,
        }),
      },
    },
    (request) => addMember(deps, request.params.id, who(request), request.body),
  );
  route(
    app,
    memberRoutes.setRole,
    {
      guards: [guards.requireAdmin],
      audit: {
        action: 'experiment.member.role',
        target: (request) => experiment(request.params.id),
        details: (request) => ({ user_id: request.params.userId, role: request.body.role }),
      },
    },
    (request) => setMemberRole(deps, request.params.id, who(request), request.params.userId, request.body.role),
  );
  route(
    app,
    memberRoutes.remove,
    {
      guards: [guards.requireAdmin],
      audit: {
        action: 'experiment.member.remove',
        target: (request) => experiment(request.params.id),
        details: (request) => ({ user_id: request.params.userId }),
      },
    },
    async (request) => {
      await removeMember(deps, request.params.id, who(request), request.params.userId);
      return { ok: true as const };
    },
  );
}

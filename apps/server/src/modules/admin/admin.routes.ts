import type { FastifyInstance, FastifyRequest } from 'fastify';
import { adminRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import { caller } from '../../plugins/auth.js';
import { hiddenExperimentIds } from '../members/members.service.js';
import {
  getThreadMessages,
  getUser,
  getUserAssignments,
  getUserSurveyResponses,
  getUserThreads,
  listUsers,
} from './admin.service.js';

/**
 * The admin area's user pages: users, their threads and messages, assignments and survey responses. Each read is
 * scoped to the experiments the caller may see (docs/decisions/0087).
 */
export function registerAdminRoutes(app: FastifyInstance, ctx: AppContext): void {
  const database = ctx.deps.database;
  const hidden = async (request: FastifyRequest) => [...(await hiddenExperimentIds(ctx.deps, caller(request).userId))];
  // Read views: admins and analysts. Each view of one person's data is recorded in the audit log.
  const guards = [ctx.guards.requireStaff];
  const viewOf = (view: string) => ({
    guards,
    audit: {
      action: 'participant.view',
      target: (request: { params: { id: string } }) => ({ type: 'user', id: request.params.id }),
      details: () => ({ view }),
    },
  });

  route(app, adminRoutes.users, { guards }, async (request) =>
    listUsers(database, request.query.sortBy, request.query.order, await hidden(request)),
  );
  route(app, adminRoutes.user, viewOf('profile'), async (request) =>
    getUser(database, request.params.id, await hidden(request)),
  );
  route(app, adminRoutes.threads, viewOf('threads'), async (request) =>
    getUserThreads(database, request.params.id, await hidden(request)),
  );
  route(app, adminRoutes.threadMessages, viewOf('messages'), async (request) =>
    getThreadMessages(database, request.params.id, request.params.threadId, await hidden(request)),
  );
  route(app, adminRoutes.assignments, viewOf('assignments'), async (request) =>
    getUserAssignments(database, request.params.id, await hidden(request)),
  );
  route(app, adminRoutes.surveyResponses, viewOf('survey responses'), async (request) =>
    getUserSurveyResponses(database, request.params.id, await hidden(request)),
  );
}

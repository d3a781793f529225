import type { FastifyInstance } from 'fastify';
import { adminRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import {
  getThreadMessages,
  getUser,
  getUserAssignments,
  getUserSurveyResponses,
  getUserThreads,
  listUsers,
} from './admin.service.js';

/** The admin area's user pages: users, their threads and messages, assignments and survey responses. */
export function registerAdminRoutes(app: FastifyInstance, ctx: AppContext): void {
  const database = ctx.deps.database;
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

  route(app, adminRoutes.users, { guards }, (request) =>
    listUsers(database, request.query.sortBy, request.query.order),
  );
  route(app, adminRoutes.user, viewOf('profile'), (request) => getUser(database, request.params.id));
  route(app, adminRoutes.threads, viewOf('threads'), (request) => getUserThreads(database, request.params.id));
  route(app, adminRoutes.threadMessages, viewOf('messages'), (request) =>
    getThreadMessages(database, request.params.id, request.params.threadId),
  );
  route(app, adminRoutes.assignments, viewOf('assignments'), (request) =>
    getUserAssignments(database, request.params.id),
  );
  route(app, adminRoutes.surveyResponses, viewOf('survey responses'), (request) =>
    getUserSurveyResponses(database, request.params.id),
  );
}

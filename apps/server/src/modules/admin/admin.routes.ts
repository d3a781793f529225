import type { FastifyInstance } from 'fastify';
import { adminRoutes } from '@studychat/contracts';
import type { AppContext } from '../../app.js';
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
  const options = { guards: [ctx.guards.requireAdmin] };

  route(app, adminRoutes.users, options, (request) => listUsers(database, request.query.sortBy, request.query.order));
  route(app, adminRoutes.user, options, (request) => getUser(database, request.params.id));
  route(app, adminRoutes.threads, options, (request) => getUserThreads(database, request.params.id));
  route(app, adminRoutes.threadMessages, options, (request) =>
    getThreadMessages(database, request.params.id, request.params.threadId),
  );
  route(app, adminRoutes.assignments, options, (request) => getUserAssignments(database, request.params.id));
  route(app, adminRoutes.surveyResponses, options, (request) => getUserSurveyResponses(database, request.params.id));
}

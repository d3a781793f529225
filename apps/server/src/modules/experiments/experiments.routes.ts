import type { FastifyInstance } from 'fastify';
import { experimentRoutes } from '@studychat/contracts';
import type { AppContext } from '../../app.js';
import { route } from '../../lib/route.js';
import { caller } from '../../plugins/auth.js';
import { generateCredentials } from './credentials.service.js';
import {
  createExperiment,
  getCompletionCode,
  getExperiment,
  listExperiments,
  updateCompletionCodes,
  updateExperiment,
} from './experiments.service.js';

/** Experiments, their completion codes and study logins (admin), and code release (participant). */
export function registerExperimentRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { deps, guards } = ctx;
  const admin = { guards: [guards.requireAdmin] };

  route(app, experimentRoutes.list, admin, () => listExperiments(deps));
  route(app, experimentRoutes.create, admin, (request) => createExperiment(deps, request.body));
  route(app, experimentRoutes.get, admin, (request) => getExperiment(deps, request.params.id));
  route(app, experimentRoutes.update, admin, (request) => updateExperiment(deps, request.params.id, request.body));
  route(app, experimentRoutes.updateCodes, admin, (request) =>
    updateCompletionCodes(deps, request.params.id, request.body.codes),
  );
  route(app, experimentRoutes.batchCredentials, admin, (request) =>
    generateCredentials(deps, ctx.config.passwordPepper, request.params.id, request.body.count, caller(request).userId),
  );
  route(app, experimentRoutes.completionCode, { guards: [guards.requireUser] }, (request) =>
    getCompletionCode(deps, caller(request), request.params.id, request.query.pathway),
  );
}

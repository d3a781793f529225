import type { FastifyInstance } from 'fastify';
import { experimentRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import { caller } from '../../plugins/auth.js';
import { generateCredentials } from './credentials.service.js';
import { listStudyLogins } from './study-logins.service.js';
import {
  createExperiment,
  getCompletionCode,
  getExperiment,
  listExperiments,
  updateCompletionCodes,
  updateExperiment,
} from './experiments.service.js';

/** Experiments, their completion codes and study logins, used or not (admin), and code release (participant). */
export function registerExperimentRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { deps, guards } = ctx;
  // Reads for admins and analysts; edits and study logins for admins only, each recorded in the audit log.
  const staff = { guards: [guards.requireStaff] };
  const admin = { guards: [guards.requireAdmin] };
  const experiment = (id: string) => ({ type: 'experiment', id });

  route(app, experimentRoutes.list, staff, () => listExperiments(deps));
  route(
    app,
    experimentRoutes.create,
    { ...admin, audit: { action: 'experiment.create', target: (_request, created) => experiment(created.id) } },
    (request) => createExperiment(deps, request.body),
  );
  route(app, experimentRoutes.get, staff, (request) => getExperiment(deps, request.params.id));
  route(
    app,
    experimentRoutes.update,
    {
      ...admin,
      audit: {
        action: 'experiment.update',
        target: (request) => experiment(request.params.id),
        details: (request) => ({ fields: Object.keys(request.body).sort() }),
      },
    },
    (request) => updateExperiment(deps, request.params.id, request.body),
  );
  route(
    app,
    experimentRoutes.updateCodes,
    {
      ...admin,
      audit: {
        action: 'experiment.codes.update',
        target: (request) => experiment(request.params.id),
        details: (request) => ({ codes: Object.keys(request.body.codes).sort() }),
      },
    },
    (request) => updateCompletionCodes(deps, request.params.id, request.body.codes),
  );
  route(
    app,
    experimentRoutes.batchCredentials,
    {
      ...admin,
      audit: {
        action: 'credentials.generate',
        target: (request) => experiment(request.params.id),
        details: (_request, created) => ({ count: created.length }),
      },
    },
    (request) =>
      generateCredentials(
        deps,
        ctx.config.passwordPepper,
        request.params.id,
        request.body.count,
        caller(request).userId,
      ),
  );
  route(
    app,
    experimentRoutes.logins,
    { ...admin, audit: { action: 'logins.view', target: (request) => experiment(request.params.id) } },
    (request) => listStudyLogins(deps, request.params.id),
  );
  route(app, experimentRoutes.completionCode, { guards: [guards.requireUser] }, (request) =>
    getCompletionCode(deps, caller(request), request.params.id, request.query.pathway),
  );
}

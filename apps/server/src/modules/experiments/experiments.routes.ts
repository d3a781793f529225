import type { FastifyInstance } from 'fastify';
import { experimentRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import { caller } from '../../plugins/auth.js';
import { generateCredentials } from './credentials.service.js';
import { listStudyLogins } from './study-logins.service.js';
import { deleteExperiment, revokeStudyLogin, setExperimentState } from './lifecycle.service.js';
import { getQuotas, updateQuotas } from './quotas.service.js';
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

  route(app, experimentRoutes.list, staff, (request) =>
    listExperiments(deps, request.query.include_archived === 'true', { userId: caller(request).userId }),
  );
  route(
    app,
    experimentRoutes.create,
    { ...admin, audit: { action: 'experiment.create', target: (_request, created) => experiment(created.id) } },
    (request) => createExperiment(deps, request.body, caller(request).userId),
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
  // The state an experiment left, per request, for the audit entry of the change (docs/decisions/0077).
  const leftState = new WeakMap<object, string>();
  route(
    app,
    experimentRoutes.setState,
    {
      ...admin,
      audit: {
        action: 'experiment.state',
        target: (request) => experiment(request.params.id),
        details: (request) => ({ from: leftState.get(request) ?? null, to: request.body.state }),
      },
    },
    async (request) => {
      const { experiment: changed, from } = await setExperimentState(deps, request.params.id, request.body.state);
      leftState.set(request, from);
      return changed;
    },
  );
  route(
    app,
    experimentRoutes.remove,
    {
      ...admin,
      audit: {
        action: 'experiment.delete',
        target: (request) => experiment(request.params.id),
        details: (_request, deleted) => ({ study_logins: deleted.study_logins }),
      },
    },
    (request) => deleteExperiment(deps, request.params.id),
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
  route(app, experimentRoutes.quotas, staff, (request) => getQuotas(deps, request.params.id));
  route(
    app,
    experimentRoutes.updateQuotas,
    {
      ...admin,
      audit: {
        action: 'experiment.quotas.update',
        target: (request) => experiment(request.params.id),
        details: (request) => ({
          quotas: request.body.quotas.map((q) => ({ condition: q.condition, stratum: q.stratum, max: q.max })),
        }),
      },
    },
    (request) => updateQuotas(deps, request.params.id, request.body.quotas),
  );
  route(
    app,
    experimentRoutes.revokeLogin,
    {
      ...admin,
      audit: {
        action: 'login.revoke',
        target: (request) => experiment(request.params.id),
        details: (_request, revoked) => ({ email: revoked.email, sessions_ended: revoked.sessions_ended }),
      },
    },
    (request) => revokeStudyLogin(deps, request.params.id, request.body.email),
  );
  route(app, experimentRoutes.completionCode, { guards: [guards.requireUser] }, (request) =>
    getCompletionCode(deps, caller(request), request.params.id, request.query.pathway),
  );
}

import type { ExperimentRole } from '@studychat/contracts';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { AppDeps } from '../lib/deps.js';
import { forbidden, notFound } from '../lib/errors.js';
import { allows, EXPERIMENT_NOT_FOUND, experimentRoleOf } from '../modules/members/members.service.js';

// The one check of who may act on which experiment (issue 34, docs/decisions/0087). Every route that names an
// experiment has its line below: the experiment's route parameter and the least member role it needs. The check
// runs after the route's own guards (signed in, admin or staff) and after its input is validated, before its
// handler, for staff callers: a member-only experiment's non-member hears 404 (exactly what an experiment that
// does not exist answers, so its existence does not leak); a member whose role is too low hears 403. Participants
// are not staff: the routes' own rules decide for them (their own records only).
//
// Fail closed: a route under /api/experiments/:id without a line here stops the server from starting, so a new
// experiment route cannot be reachable by non-members by omission.

interface Rule {
  /** The route parameter that names the experiment. */
  param: 'id' | 'experimentId';
  /** The least role it needs: viewer (read, monitor, export), editor (change the study's set-up), owner. */
  role: ExperimentRole;
}

const viewer: Rule = { param: 'id', role: 'viewer' };
const editor: Rule = { param: 'id', role: 'editor' };
const owner: Rule = { param: 'id', role: 'owner' };

export const EXPERIMENT_ROUTES: Readonly<Record<string, Rule>> = {
  // experiments: the experiment, its state, deletion, codes, study logins, quotas, chat limits, exports
  'GET /api/experiments/:id': viewer,
  'PUT /api/experiments/:id': editor,
  'PUT /api/experiments/:id/state': owner,
  'DELETE /api/experiments/:id': owner,
  'GET /api/experiments/:id/quotas': viewer,
  'PUT /api/experiments/:id/quotas': editor,
  'PUT /api/experiments/:id/completion-codes': editor,
  'POST /api/experiments/:id/batch-credentials': editor,
  'GET /api/experiments/:id/logins': editor,
  'POST /api/experiments/:id/logins/revoke': editor,
  'GET /api/experiments/:id/completion-code': viewer,
  'GET /api/experiments/:id/participant-summary': viewer,
  'GET /api/experiments/:id/participants-detailed': viewer,
  'GET /api/experiments/:id/chat-limits': viewer,
  'PUT /api/experiments/:id/chat-limits': editor,
  'GET /api/experiments/:id/export/:file': viewer,
  'GET /api/experiments/:id/export-package': viewer,
  'GET /api/experiments/:id/export-transcripts': viewer,
  'GET /api/experiments/:id/export-spreadsheet': viewer,
  'POST /api/experiments/:id/withdrawals': editor,
  // monitor, cost estimate, provider health
  'GET /api/experiments/:id/monitor': viewer,
  'PUT /api/experiments/:id/monitor/settings': editor,
  'GET /api/experiments/:id/monitor/stream': viewer,
  'GET /api/experiments/:id/monitor/provider-health': viewer,
  'GET /api/experiments/:id/cost-estimate': viewer,
  // studies (the pin), flows (progress and codes), Prolific, previews, pilots
  'PUT /api/experiments/:id/study-version': editor,
  'GET /api/experiments/:id/flow-progress': viewer,
  'GET /api/experiments/:id/flow-codes': viewer,
  'PUT /api/experiments/:id/flow-codes': editor,
  'GET /api/experiments/:id/prolific-study': viewer,
  'PUT /api/experiments/:id/prolific-study': editor,
  'POST /api/experiments/:id/prolific/approve': editor,
  'GET /api/experiments/:id/prolific/checklist': viewer,
  'POST /api/experiments/:id/prolific/launch': editor,
  'POST /api/experiments/:id/prolific/publish': editor,
  'POST /api/experiments/:id/prolific/sync': editor,
  'POST /api/experiments/:id/prolific/reject': editor,
  'GET /api/experiments/:id/prolific/bonuses': editor,
  'POST /api/experiments/:id/prolific/bonuses': editor,
  'POST /api/experiments/:id/prolific/bonuses/:batchId/pay': editor,
  'GET /api/experiments/:id/prolific-link-join': viewer,
  'PUT /api/experiments/:id/prolific-link-join': editor,
  'POST /api/experiments/:id/previews': editor,
  'POST /api/experiments/:id/pilots': editor,
  'GET /api/experiments/:id/pilots': viewer,
  'GET /api/experiments/:id/pilots/:pilotId': viewer,
  // follow-up waves (docs/decisions/0091)
  'GET /api/experiments/:id/wave': viewer,
  'PUT /api/experiments/:id/wave': editor,
  'GET /api/experiments/:id/prolific/participant-group': viewer,
  'POST /api/experiments/:id/prolific/participant-group': editor,
  // the members themselves
  'GET /api/experiments/:id/members': viewer,
  'POST /api/experiments/:id/members': owner,
  'PUT /api/experiments/:id/members/:userId': owner,
  'DELETE /api/experiments/:id/members/:userId': owner,
  // participant routes that name the experiment in their path, which staff may call too: a non-member must not
  // learn from them that it exists (or whether it is a flow)
  'GET /api/participants/study/:experimentId': { param: 'experimentId', role: 'viewer' },
  'GET /api/participants/:userId/:experimentId': { param: 'experimentId', role: 'viewer' },
  'GET /api/participants/journey/:experimentId': { param: 'experimentId', role: 'viewer' },
  'GET /api/participants/flow/:experimentId': { param: 'experimentId', role: 'viewer' },
  'POST /api/participants/flow/:experimentId/steps/:stepId': { param: 'experimentId', role: 'viewer' },
  'POST /api/participants/flow/:experimentId/steps/:stepId/generate': { param: 'experimentId', role: 'viewer' },
};

/** Is this an experiment's route, which must have a line in EXPERIMENT_ROUTES? */
function namesAnExperiment(url: string): boolean {
  return url === '/api/experiments/:id' || url.startsWith('/api/experiments/:id/');
}

/** Registers the check on every route in EXPERIMENT_ROUTES; register before any route. */
export function registerExperimentAccess(app: FastifyInstance, deps: AppDeps): void {
  const checks = new Map<string, preHandlerAsyncHookHandler>();
  const checkFor = (key: string, rule: Rule): preHandlerAsyncHookHandler => {
    const existing = checks.get(key);
    if (existing) return existing;
    const check: preHandlerAsyncHookHandler = async (request: FastifyRequest) => {
      const auth = request.auth;
      if (!auth || auth.role === 'participant') return;
      const experimentId = (request.params as Record<string, string | undefined>)[rule.param];
      if (!experimentId) return;
      const role = await experimentRoleOf(deps, experimentId, { userId: auth.userId, role: auth.role });
      if (!role) throw notFound(EXPERIMENT_NOT_FOUND);
      if (!allows(role, rule.role)) {
        throw forbidden(`Your role on this experiment (${role}) does not allow this: it needs ${rule.role}.`);
      }
    };
    checks.set(key, check);
    return check;
  };

  app.addHook('onRoute', (options) => {
    if (!options.url.startsWith('/api/')) return;
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    for (const method of methods) {
      // Fastify adds HEAD for every GET by itself: the GET's rule holds for it.
      const key = `${method === 'HEAD' ? 'GET' : method} ${options.url}`;
      const rule = EXPERIMENT_ROUTES[key];
      if (!rule) {
        if (namesAnExperiment(options.url)) {
          throw new Error(
            `${key} names an experiment but has no line in EXPERIMENT_ROUTES (plugins/experiment-access.ts)`,
          );
        }
        continue;
      }
      const check = checkFor(key, rule);
      const current = options.preHandler;
      const list = current === undefined ? [] : Array.isArray(current) ? [...current] : [current];
      if (!list.includes(check)) options.preHandler = [check, ...list];
    }
  });
}

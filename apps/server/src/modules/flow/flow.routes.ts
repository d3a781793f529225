import type { FastifyInstance } from 'fastify';
import { flowRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import { mergePrices } from '../../llm/pricing.js';
import { caller } from '../../plugins/auth.js';
import { generateAiText, getFlowCodes, getFlowView, submitFlowStep, updateFlowCodes } from './flow.service.js';

/** A study written as a flow (issue 30): the participant's view and writes; the pathways' codes for researchers. */
export function registerFlowRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { deps } = ctx;
  const user = { guards: [ctx.guards.requireUser] };
  const flowCtx = { deps, prices: mergePrices(ctx.config.llm.prices) };

  route(app, flowRoutes.view, user, (request) =>
    getFlowView(deps, caller(request).userId, request.params.experimentId),
  );
  route(app, flowRoutes.submit, user, (request) =>
    submitFlowStep(deps, caller(request).userId, request.params.experimentId, request.params.stepId, request.body),
  );
  route(app, flowRoutes.generate, user, (request) =>
    generateAiText(flowCtx, caller(request).userId, request.params.experimentId, request.params.stepId),
  );
  route(app, flowRoutes.codes, { guards: [ctx.guards.requireStaff] }, (request) =>
    getFlowCodes(deps, request.params.id),
  );
  route(
    app,
    flowRoutes.updateCodes,
    {
      guards: [ctx.guards.requireAdmin],
      audit: {
        action: 'experiment.flow_codes.update',
        target: (request) => ({ type: 'experiment', id: request.params.id }),
        details: (request) => ({ codes: Object.keys(request.body.codes).sort() }),
      },
    },
    (request) => updateFlowCodes(deps, request.params.id, request.body.codes),
  );
}

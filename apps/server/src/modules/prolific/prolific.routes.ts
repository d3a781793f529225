import type { FastifyInstance, FastifyRequest } from 'fastify';
import { prolificRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { AppError } from '../../lib/errors.js';
import { route } from '../../lib/route.js';
import { caller } from '../../plugins/auth.js';
import {
  clearProlificConnection,
  prolificConnection,
  prolificStudyLink,
  receiveProlificWebhook,
  refreshConfigured,
  resumePendingCompletions,
  saveProlificConnection,
  setProlificStudyLink,
  startProlificRuntime,
  testProlificConnection,
} from './prolific.service.js';
import { approvePathway } from './review.service.js';
import { registerProlificPayRoutes } from './prolific-pay.routes.js';

const DEFAULT_API_URL = 'https://api.prolific.com';
const DEFAULT_TIMEOUT_MS = 10_000;

/** The Prolific connection (admins), the study linked to an experiment, and Prolific's webhooks (public, signed). */
export function registerProlificRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { guards } = ctx;
  const runtime = startProlificRuntime(ctx.deps, {
    pepper: ctx.config.passwordPepper,
    apiUrl: ctx.config.prolific?.apiUrl ?? DEFAULT_API_URL,
    timeoutMs: ctx.config.prolific?.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    log: app.log,
    processes: ctx.config.workers,
  });
  // Whether a token is set is known before the first request, so a participant's completion never reads it;
  // with one, completions a stopped process left pending are taken up again.
  // A database not ready at start (not yet migrated, or unreachable) leaves it unknown: it is read at first use.
  app.addHook('onReady', async () => {
    try {
      if (await refreshConfigured(runtime)) await resumePendingCompletions(runtime);
    } catch (error) {
      app.log.warn({ err: error }, 'the Prolific settings could not be read at start: they are read at first use');
    }
  });
  const admin = { guards: [guards.requireAdmin] };

  route(app, prolificRoutes.connection, admin, () => prolificConnection(runtime));
  route(
    app,
    prolificRoutes.save,
    {
      ...admin,
      audit: {
        action: 'prolific.connection.save',
        // Which secrets changed, never their values.
        details: (request) => ({
          apiToken: request.body.apiToken !== undefined,
          webhookSecret: request.body.webhookSecret !== undefined,
        }),
      },
    },
    (request) => saveProlificConnection(runtime, caller(request).userId, request.body),
  );
  route(app, prolificRoutes.clear, { ...admin, audit: { action: 'prolific.connection.clear' } }, (request) =>
    clearProlificConnection(runtime, caller(request).userId),
  );
  route(app, prolificRoutes.test, { ...admin, audit: { action: 'prolific.connection.test' } }, () =>
    testProlificConnection(runtime),
  );
  route(app, prolificRoutes.studyLink, { guards: [guards.requireStaff] }, (request) =>
    prolificStudyLink(runtime, request.params.id),
  );
  route(
    app,
    prolificRoutes.setStudyLink,
    {
      ...admin,
      audit: {
        action: 'prolific.study.link',
        target: (request) => ({ type: 'experiment', id: request.params.id }),
        details: (request) => ({ studyId: request.body.studyId }),
      },
    },
    (request) => setProlificStudyLink(runtime, request.params.id, request.body.studyId),
  );

  route(
    app,
    prolificRoutes.approve,
    {
      ...admin,
      audit: {
        action: 'prolific.submissions.approve',
        target: (request) => ({ type: 'experiment', id: request.params.id }),
        details: (request, reply) => ({ pathway: request.body.pathway, approved: reply.approved }),
      },
    },
    (request) => approvePathway(runtime, request.params.id, request.body.pathway),
  );

  registerProlificPayRoutes(app, ctx, runtime);

  // The signature covers the body as sent, so this route keeps the raw text beside the parsed JSON.
  void app.register(async (child) => {
    child.removeContentTypeParser('application/json');
    child.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      rawBodies.set(request, text);
      try {
        done(null, JSON.parse(text));
      } catch {
        done(new AppError(400, 'BAD_REQUEST', 'The body is not valid JSON.'), undefined);
      }
    });
    route(child, prolificRoutes.webhook, {}, (request) =>
      receiveProlificWebhook(runtime, {
        rawBody: rawBodies.get(request) ?? '',
        headers: request.headers,
        body: request.body,
      }),
    );
  });
}

const rawBodies = new WeakMap<FastifyRequest, string>();

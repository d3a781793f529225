import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppConfig } from './config.js';
import type { AppDeps } from './lib/deps.js';
import { registerAuth } from './plugins/auth.js';
import type { AppContext } from './lib/context.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { registerAudit } from './plugins/audit.js';
import { registerRouteRegistry } from './plugins/route-registry.js';
import { registerExperimentAccess } from './plugins/experiment-access.js';
import { registerMemberRoutes } from './modules/members/members.routes.js';
import { registerAuditRoutes } from './modules/audit/audit.routes.js';
import { serverLimits } from './plugins/server-limits.js';
import {
  clientErrorHandler,
  frameworkErrors,
  PROTOCOL_SERVER_OPTIONS,
  registerProtocolErrors,
} from './plugins/protocol-errors.js';
import { registerSecurity } from './plugins/security.js';
import { registerStaticWeb } from './plugins/static-web.js';
import { registerAuthRoutes } from './modules/auth/auth.routes.js';
import { registerChatLimitRoutes } from './modules/chat/chat-limits.routes.js';
import { registerCostEstimateRoutes } from './modules/chat/cost-estimate.routes.js';
import type { AuthContext } from './modules/auth/auth.service.js';
import { registerSecurityRoutes } from './modules/auth/security.routes.js';
import { registerStaffRoutes } from './modules/staff/staff.routes.js';
import { registerChatRoutes } from './modules/chat/chat.routes.js';
import { TokenSigner } from './modules/auth/token.js';
import { LoginLimiter } from './modules/auth/login-limiter.js';
import { HashQueue } from './modules/users/hash-queue.js';
import { registerHealthRoutes } from './modules/health/health.routes.js';
import { registerSystemRoutes } from './modules/system/system.routes.js';
import { registerExperimentRoutes } from './modules/experiments/experiments.routes.js';
import { registerJourneyRoutes } from './modules/journey/journey.routes.js';
import { registerFlowRoutes } from './modules/flow/flow.routes.js';
import { registerParticipantRoutes } from './modules/participants/participants.routes.js';
import { registerSurveyRoutes } from './modules/surveys/surveys.routes.js';
import { registerAdminRoutes } from './modules/admin/admin.routes.js';
import { registerAnalyticsRoutes } from './modules/analytics/analytics.routes.js';
import { registerMonitorRoutes } from './modules/monitor/monitor.routes.js';
import { LastSeen } from './modules/monitor/last-seen.js';
import { registerWithdrawalRoutes } from './modules/withdrawal/withdrawal.routes.js';
import { registerStudyRoutes } from './modules/studies/studies.routes.js';
import { registerPreviewRoutes } from './modules/preview/preview.routes.js';
import { registerPilotRoutes } from './modules/pilot/pilot.routes.js';
import { registerTestClockRoutes } from './modules/test-clock/test-clock.routes.js';
import { registerProlificRoutes } from './modules/prolific/prolific.routes.js';
import { registerProlificJoinRoutes } from './modules/prolific-join/link-join.routes.js';
import { registerWaveRoutes } from './modules/waves/waves.routes.js';
import { registerProlificLaunchRoutes } from './modules/prolific-launch/launch.routes.js';

/** Builds the HTTP app without listening: main.ts listens, tests use `app.inject`. */
export async function buildApp(config: AppConfig, deps: AppDeps): Promise<FastifyInstance> {
  const limits = serverLimits(config.http);
  const app = Fastify({
    logger: {
      name: 'app',
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', 'req.body.password', 'req.body.message'], remove: true },
    },
    bodyLimit: config.bodyLimitBytes,
    ...limits,
    http: { ...limits.http, ...PROTOCOL_SERVER_OPTIONS },
    // What Node and Fastify would answer themselves is answered `{ error, code }` too (plugins/protocol-errors.ts).
    clientErrorHandler,
    frameworkErrors,
    // Only the listed proxies' X-Forwarded-For is believed (config.ts refuses a blanket true).
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
  });
  app.server.maxConnections = config.http.maxConnections;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // The API speaks JSON only: other bodies get 415 rather than reaching validation as strings.
  app.removeContentTypeParser('text/plain');

  // A lost connection, an unreachable database and its return go to the app's log (db/database.ts).
  deps.database.reportTo(app.log);
  registerRouteRegistry(app);
  registerErrorHandler(app);
  registerSecurity(app);
  registerProtocolErrors(app);
  const signer = new TokenSigner(config.jwtSecret);
  // Any participant API call counts as activity on the monitor (at most one write per 30 s each).
  const lastSeen = new LastSeen(deps.database.db, deps.clock);
  const guards = registerAuth(app, deps, signer, (userId) => lastSeen.touch(userId));
  registerAudit(app, deps);
  registerExperimentAccess(app, deps);
  const ctx: AppContext = { config, deps, guards };

  registerHealthRoutes(app, deps, config.llm);
  const auth: AuthContext = {
    deps,
    signer,
    tokenTtlSeconds: config.tokenTtlSeconds,
    limiter: new LoginLimiter(deps.database.db),
    hashQueue: new HashQueue(config.hashConcurrency, config.hashQueueLimit),
    pepper: config.passwordPepper,
    totpRequired: config.adminTotpRequired,
    lastSeen,
  };
  registerAuthRoutes(app, auth, guards);
  registerSecurityRoutes(app, auth, guards);
  registerStaffRoutes(app, auth, guards);
  // Feature modules register here, one line each.
  registerSystemRoutes(app, ctx);
  registerChatRoutes(app, ctx);
  registerChatLimitRoutes(app, ctx);
  registerCostEstimateRoutes(app, ctx);
  registerExperimentRoutes(app, ctx);
  registerMemberRoutes(app, ctx);
  registerParticipantRoutes(app, ctx);
  registerJourneyRoutes(app, ctx);
  registerFlowRoutes(app, ctx);
  registerSurveyRoutes(app, ctx);
  registerAdminRoutes(app, ctx);
  registerAnalyticsRoutes(app, ctx);
  registerWithdrawalRoutes(app, ctx);
  registerAuditRoutes(app, ctx);
  registerMonitorRoutes(app, ctx);
  registerStudyRoutes(app, ctx);
  registerPreviewRoutes(app, ctx, auth);
  registerProlificRoutes(app, ctx);
  registerProlificJoinRoutes(app, ctx, auth);
  registerProlificLaunchRoutes(app, ctx);
  registerWaveRoutes(app, ctx);
  // A pilot run walks the study through a second app of its own, on a pilot clock (docs/decisions/0085).
  registerPilotRoutes(app, ctx, auth, (pilotDeps) =>
    buildApp(
      { ...config, logLevel: config.logLevel === 'silent' ? 'silent' : 'warn', webDistDir: undefined },
      pilotDeps,
    ),
  );
  // Browser tests only (config.ts allows TEST_CLOCK with NODE_ENV=test and nowhere else).
  if (config.env === 'test' && config.testClock && deps.clockControl) {
    registerTestClockRoutes(app, ctx, deps.clockControl);
  }

  await registerStaticWeb(app, config.webDistDir);
  return app;
}

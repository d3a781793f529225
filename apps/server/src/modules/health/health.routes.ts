import type { FastifyInstance } from 'fastify';
import { authRoutes, healthRoutes } from '@studychat/contracts';
import type { LlmConfig } from '../../config.js';
import type { AppDeps } from '../../lib/deps.js';
import { route } from '../../lib/route.js';
import { readiness } from './health.service.js';

/**
 * Liveness (`/api/health`: the process answers; 200 even while the database is away, so nothing restarts
 * a healthy process during a database outage) and readiness (`/api/ready`: 503 until it can serve).
 */
export function registerHealthRoutes(app: FastifyInstance, deps: AppDeps, llm: LlmConfig): void {
  route(app, authRoutes.health, {}, async () => {
    const reachable = await deps.database.ping();
    return {
      status: reachable ? ('ok' as const) : ('degraded' as const),
      database: { dialect: deps.database.dialect, reachable },
      llmProvider: llm.provider,
    };
  });
  route(app, healthRoutes.ready, {}, async (_request, reply) => {
    const result = await readiness(deps, llm);
    if (result.status !== 'ready') reply.code(503);
    return result;
  });
}

import type { FastifyInstance } from 'fastify';
import { authRoutes } from '@studychat/contracts';
import type { AppDeps } from '../../lib/deps.js';
import { route } from '../../lib/route.js';

export function registerHealthRoutes(app: FastifyInstance, deps: AppDeps, llmProvider: string): void {
  route(app, authRoutes.health, {}, async (_request, reply) => {
    const reachable = await deps.database.ping();
    if (!reachable) reply.code(503);
    return {
      status: reachable ? ('ok' as const) : ('degraded' as const),
      database: { dialect: deps.database.dialect, reachable },
      llmProvider,
    };
  });
}

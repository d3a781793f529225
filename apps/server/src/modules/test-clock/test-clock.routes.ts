import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineRoute } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import type { ClockControl } from '../../lib/test-clock.js';
import { route } from '../../lib/route.js';

// Browser tests only: registered when NODE_ENV=test and TEST_CLOCK=manual (config.ts refuses TEST_CLOCK
// anywhere else), so the end-to-end walks can move the server's clock past the sections' minimum seconds
// instead of waiting for them. Not part of the API contract; see docs/decisions/0011.

const advanceRoute = defineRoute({
  method: 'POST',
  path: '/api/test/clock',
  body: z.object({ advanceMs: z.number().int().min(0).max(86_400_000) }),
  reply: z.object({ now: z.string() }),
});

export function registerTestClockRoutes(app: FastifyInstance, ctx: AppContext, control: ClockControl): void {
  route(app, advanceRoute, { guards: [ctx.guards.requireAdmin] }, async (request) => {
    control.advance(request.body.advanceMs);
    return { now: control.clock().toISOString() };
  });
}

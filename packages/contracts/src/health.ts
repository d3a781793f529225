import { z } from 'zod';
import { defineRoute } from './route.js';

/** Readiness: 200 when every check passes, 503 otherwise (the compose healthcheck and load balancers use it). */
export const ReadyReply = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.object({
    /** A query succeeds. */
    database: z.boolean(),
    /** Every migration this server knows has been applied. */
    migrations: z.boolean(),
    /** The configured chat model has what it needs to be called (key or endpoint; the scripted model needs none). */
    model: z.boolean(),
  }),
});
export type ReadyReply = z.infer<typeof ReadyReply>;

export const healthRoutes = {
  ready: defineRoute({ method: 'GET', path: '/api/ready', reply: ReadyReply }),
};

import { z } from 'zod';
import { defineRoute } from './route.js';
import { IdParams } from './common.js';

// The model provider's health in the monitor (issue 32, docs/decisions/0076): the experiment's replies that
// failed, waited their turn (the shared rate limit, a provider's retry-after) or were answered by the fallback
// model, over recent periods. Read from the replies as stored (chat_messages: status, queue_ms, fallback_from).

export const ProviderHealthPeriod = z.object({
  minutes: z.number().int(),
  /** Assistant replies begun in the period (the chat's opening included). */
  replies: z.number().int(),
  /** Replies that ended in an error (the participant was asked to send again). */
  errors: z.number().int(),
  /** Replies that waited their turn at the provider (queue_ms > 0). */
  waited: z.number().int(),
  /** Of the replies that waited: the median and the longest wait, in ms; null when none waited. */
  waitMedianMs: z.number().int().nullable(),
  waitMaxMs: z.number().int().nullable(),
  /** Replies the condition's fallback model answered. */
  fallbacks: z.number().int(),
});
export type ProviderHealthPeriod = z.infer<typeof ProviderHealthPeriod>;

export const ProviderHealthReply = z.object({ periods: z.array(ProviderHealthPeriod) });
export type ProviderHealthReply = z.infer<typeof ProviderHealthReply>;

export const providerHealthRoutes = {
  get: defineRoute({
    method: 'GET',
    path: '/api/experiments/:id/monitor/provider-health',
    params: IdParams,
    reply: ProviderHealthReply,
  }),
};

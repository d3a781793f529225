import { z } from 'zod';
import { defineRoute } from './route.js';
import { IdParams } from './common.js';
import { TARGET_SAMPLE_SIZE_MAX } from './constants.js';

// The chat's expected cost before launch (issue 32, docs/decisions/0076): per participant and per arm at a target
// sample size, with and without the provider's prompt cache, from the pinned study's prompts and completion rule.

export const CostEstimateQuery = z.object({
  sample: z.coerce
    .number({ error: 'sample must be a number' })
    .int('sample must be a whole number')
    .min(1, 'sample must be at least 1')
    .max(TARGET_SAMPLE_SIZE_MAX, `sample must be at most ${TARGET_SAMPLE_SIZE_MAX}`),
});

/** US dollars without and with the prompt cache; null when a model of the arm has no known price. */
export const CostPair = z.object({ uncached: z.number().nullable(), cached: z.number().nullable() });
export type CostPair = z.infer<typeof CostPair>;

/** One arm (condition): its share of the sample and what a participant in it is expected to cost. */
export const CostEstimateArm = z.object({
  condition: z.string(),
  label: z.string(),
  /** Share of the sample randomised to this arm (0-1). */
  share: z.number(),
  /** Expected participants in this arm at the sample size (share x sample, not rounded). */
  participants: z.number(),
  /** The models this arm calls (empty: no model call, costs nothing). */
  models: z.array(z.string()),
  /** Models with no known price: the arm's cost is unknown (null). */
  unpriced: z.array(z.string()),
  /** Model calls per participant (the chat's opening and one per round; one per AI text). */
  calls: z.number().int(),
  /** Estimated tokens per participant, every call summed. */
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  perParticipant: CostPair,
  total: CostPair,
});
export type CostEstimateArm = z.infer<typeof CostEstimateArm>;

export const CostEstimateReply = z.object({
  sample: z.number().int(),
  arms: z.array(CostEstimateArm),
  /** Every arm's total; null when any arm's is unknown. */
  total: CostPair,
  /** The total over the sample size; null when unknown. */
  perParticipant: CostPair,
  /** What the estimate assumes, in plain words (the page shows them). */
  assumptions: z.array(z.string()),
});
export type CostEstimateReply = z.infer<typeof CostEstimateReply>;

export const costEstimateRoutes = {
  get: defineRoute({
    method: 'GET',
    path: '/api/experiments/:id/cost-estimate',
    params: IdParams,
    query: CostEstimateQuery,
    reply: CostEstimateReply,
  }),
};

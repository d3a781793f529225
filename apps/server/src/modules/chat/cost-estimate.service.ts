import type { ChatLimits, CostEstimateReply } from '@studychat/contracts';
import type { LlmConfig } from '../../config.js';
import type { AppDeps } from '../../lib/deps.js';
import { mergePrices } from '../../llm/pricing.js';
import { chatLimitOverridesOf } from '../experiments/experiments.service.js';
import { resolveChatLimits } from './chat-limits.js';
import { builtInArms, flowArms } from './cost-estimate-arms.js';
import { estimateCost } from './cost-estimate.js';

/**
 * The experiment's expected chat cost at a sample size (docs/decisions/0076): its pinned study's arms priced with
 * the deployment's price table, its model and the experiment's reply-token limit. 404 for an unknown experiment.
 */
export async function getCostEstimate(
  deps: AppDeps,
  config: { llm: LlmConfig; chatLimits: ChatLimits },
  experimentId: string,
  sample: number,
): Promise<CostEstimateReply> {
  const overrides = await chatLimitOverridesOf(deps, experimentId);
  const limits = resolveChatLimits(config.chatLimits, overrides);
  const flow = await deps.flows(experimentId);
  const arms = flow ? flowArms(flow) : builtInArms(await deps.studies(experimentId));
  const defaults = {
    model: deps.llm.model,
    replyTokenLimit: limits.replyTokens,
    thinkingBudget: config.llm.thinkingBudget,
  };
  return estimateCost(arms, defaults, mergePrices(config.llm.prices), sample);
}

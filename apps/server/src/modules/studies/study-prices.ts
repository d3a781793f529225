import {
  conditionIds,
  isFlowDefinition,
  type FlowDefinition,
  type FlowModel,
  type StudyDefinition,
  type StudyIssue,
} from '@studychat/contracts';
import { priceFor, type PriceTable } from '../../llm/pricing.js';

/**
 * The conditions whose model has no known price, as problems at their model setting (docs/decisions/0073): the
 * chat budget could not count what they cost. A condition's own price, or the deployment's price table, prices
 * its model; a condition without a model of its own runs the deployment's, which the start already refused
 * without a price.
 */
export function unpricedModels(study: StudyDefinition | FlowDefinition, prices: PriceTable): StudyIssue[] {
  if (isFlowDefinition(study)) return unpricedFlowModels(study, prices);
  const issues: StudyIssue[] = [];
  for (const condition of conditionIds(study)) {
    const settings = study.chat.conditions[condition]?.settings;
    const path = `chat.conditions.${condition}.settings`;
    issues.push(...unpricedFallback(`${path}.fallbackModel`, settings, prices));
    const model = settings?.model;
    if (model === undefined || settings?.price !== undefined || priceFor(model, prices) !== null) continue;
    issues.push({
      path: `${path}.model`,
      message: `no price is known for the model "${model}": give this condition a price per million input and output tokens (USD), or add the model to the deployment's LLM_PRICES`,
    });
  }
  return issues;
}

/**
 * A fallback model is priced from the deployment's table only (the condition's own price is its model's), so one
 * the table does not know is refused at its setting: the reply it would write could not be counted
 * (docs/decisions/0076).
 */
function unpricedFallback(path: string, settings: FlowModel | undefined, prices: PriceTable): StudyIssue[] {
  const fallback = settings?.fallbackModel;
  if (fallback === undefined || priceFor(fallback, prices) !== null) return [];
  return [
    {
      path,
      message: `no price is known for the fallback model "${fallback}": choose a model the deployment has a price for, or add it to the deployment's LLM_PRICES`,
    },
  ];
}

function unpricedIssue(path: string, model: string): StudyIssue {
  return {
    path,
    message: `no price is known for the model "${model}": give it a price per million input and output tokens (USD), or add the model to the deployment's LLM_PRICES`,
  };
}

/** The same for a flow: every chat arm's and AI text step's model. */
function unpricedFlowModels(flow: FlowDefinition, prices: PriceTable): StudyIssue[] {
  const issues: StudyIssue[] = [];
  flow.steps.forEach((step, index) => {
    const models: [string, FlowModel | undefined][] =
      step.type === 'chat'
        ? Object.entries(step.arms).map(([condition, arm]) => [
            `steps.${index}.arms.${condition}.model.model`,
            arm.model,
          ])
        : step.type === 'ai_text'
          ? [[`steps.${index}.model.model`, step.model]]
          : [];
    for (const [path, settings] of models) {
      issues.push(...unpricedFallback(path.replace(/\.model$/, '.fallbackModel'), settings, prices));
      const model = settings?.model;
      if (model === undefined || settings?.price !== undefined || priceFor(model, prices) !== null) continue;
      issues.push(unpricedIssue(path, model));
    }
  });
  return issues;
}

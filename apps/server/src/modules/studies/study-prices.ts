import { conditionIds, type StudyDefinition, type StudyIssue } from '@studychat/contracts';
import { priceFor, type PriceTable } from '../../llm/pricing.js';

/**
 * The conditions whose model has no known price, as problems at their model setting (docs/decisions/0073): the
 * chat budget could not count what they cost. A condition's own price, or the deployment's price table, prices
 * its model; a condition without a model of its own runs the deployment's, which the start already refused
 * without a price.
 */
export function unpricedModels(study: StudyDefinition, prices: PriceTable): StudyIssue[] {
  const issues: StudyIssue[] = [];
  for (const condition of conditionIds(study)) {
    const settings = study.chat.conditions[condition]?.settings;
    const model = settings?.model;
    if (model === undefined || settings?.price !== undefined || priceFor(model, prices) !== null) continue;
    issues.push({
      path: `chat.conditions.${condition}.settings.model`,
      message: `no price is known for the model "${model}": give this condition a price per million input and output tokens (USD), or add the model to the deployment's LLM_PRICES`,
    });
  }
  return issues;
}

import type { BudgetStatus, ChatLimitOverrides, ChatLimits, ChatLimitsReply } from '@studychat/contracts';
import type { AppDeps } from '../../lib/deps.js';
import {
  chatLimitOverridesOf,
  experimentBudgets,
  updateChatLimitOverrides,
} from '../experiments/experiments.service.js';
import { budgetStatus, resolveChatLimits } from './chat-limits.js';
import { experimentSpentUsd, spentByExperiment } from './chat.repository.js';

/** An experiment's chat limits for the admin page: defaults, its own values, what applies, and the budget. */
export async function getChatLimits(
  deps: AppDeps,
  defaults: ChatLimits,
  experimentId: string,
): Promise<ChatLimitsReply> {
  const overrides = await chatLimitOverridesOf(deps, experimentId);
  const effective = resolveChatLimits(defaults, overrides);
  const spent = await experimentSpentUsd(deps.database.db, experimentId);
  return { defaults, overrides, effective, budget: budgetStatus(spent, effective.budgetUsd) };
}

/** Sets the limits that were sent (null puts one back to its default); the others keep their value. */
export async function updateChatLimits(
  deps: AppDeps,
  defaults: ChatLimits,
  experimentId: string,
  changes: Partial<ChatLimitOverrides>,
): Promise<ChatLimitsReply> {
  await updateChatLimitOverrides(deps, experimentId, changes);
  return getChatLimits(deps, defaults, experimentId);
}

/** Experiments whose chat budget is 80% or more spent, for the warning on every admin page. */
export async function budgetAlerts(
  deps: AppDeps,
  defaults: ChatLimits,
): Promise<(BudgetStatus & { experimentId: string; name: string })[]> {
  const [experiments, spent] = await Promise.all([experimentBudgets(deps), spentByExperiment(deps.database.db)]);
  const alerts = [];
  for (const experiment of experiments) {
    const budget = experiment.budgetUsd ?? defaults.budgetUsd;
    const status = budgetStatus(spent.get(experiment.id) ?? 0, budget);
    if (status.state === 'warning' || status.state === 'stopped') {
      alerts.push({ ...status, experimentId: experiment.id, name: experiment.name });
    }
  }
  return alerts;
}

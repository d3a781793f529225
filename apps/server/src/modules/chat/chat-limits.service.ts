import {
  admitsNewParticipants,
  type BudgetStatus,
  type ChatLimitOverrides,
  type ChatLimits,
  type ChatLimitsReply,
} from '@studychat/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { AppDeps } from '../../lib/deps.js';
import {
  chatLimitOverridesOf,
  experimentBudgets,
  updateChatLimitOverrides,
} from '../experiments/experiments.service.js';
import { findChatLimitOverrides } from '../experiments/experiments.service.js';
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
  return { defaults, overrides, effective, budget: budgetStatus(spent, effective.budgetUsd, effective.admitPercent) };
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
    const status = budgetStatus(
      spent.get(experiment.id) ?? 0,
      budget,
      experiment.admitPercent ?? defaults.admitPercent,
    );
    if (status.state === 'warning' || status.state === 'stopped') {
      alerts.push({ ...status, experimentId: experiment.id, name: experiment.name });
    }
  }
  return alerts;
}

/**
 * Whether the experiment admits a new participant: not once its admit percent of the chat budget is spent
 * (docs/decisions/0073); those already in finish. Undefined: no such experiment. Runs in the caller's
 * transaction when given one.
 */
export async function admitsNew(
  db: Kysely<DB>,
  defaults: ChatLimits,
  experimentId: string,
): Promise<boolean | undefined> {
  const overrides = await findChatLimitOverrides(db, experimentId);
  if (!overrides) return undefined;
  const limits = resolveChatLimits(defaults, overrides);
  if (limits.budgetUsd === null) return true;
  return admitsNewParticipants(await experimentSpentUsd(db, experimentId), limits.budgetUsd, limits.admitPercent);
}

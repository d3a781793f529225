import type { Updateable } from 'kysely';
import type { BudgetStatus, ChatLimitOverrides, ChatLimits, ChatLimitsReply } from '@studychat/contracts';
import type { ExperimentsTable } from '../../db/schema.js';
import { toNumberOrNull } from '../../db/values.js';
import type { AppDeps } from '../../lib/deps.js';
import { notFound } from '../../lib/errors.js';
import {
  CHAT_LIMIT_COLUMN,
  findChatLimitOverrides,
  listExperimentBudgets,
  updateExperimentRow,
} from '../experiments/experiments.repository.js';
import { EXPERIMENT_NOT_FOUND } from '../experiments/experiments.service.js';
import { budgetStatus, resolveChatLimits } from './chat-limits.js';
import { experimentSpentUsd, spentByExperiment } from './chat.repository.js';

/** An experiment's chat limits for the admin page: defaults, its own values, what applies, and the budget. */
export async function getChatLimits(
  deps: AppDeps,
  defaults: ChatLimits,
  experimentId: string,
): Promise<ChatLimitsReply> {
  const { db } = deps.database;
  const overrides = await findChatLimitOverrides(db, experimentId);
  if (!overrides) throw notFound(EXPERIMENT_NOT_FOUND);
  const effective = resolveChatLimits(defaults, overrides);
  const spent = await experimentSpentUsd(db, experimentId);
  return { defaults, overrides, effective, budget: budgetStatus(spent, effective.budgetUsd) };
}

/** Sets the limits that were sent (null puts one back to its default); the others keep their value. */
export async function updateChatLimits(
  deps: AppDeps,
  defaults: ChatLimits,
  experimentId: string,
  changes: Partial<ChatLimitOverrides>,
): Promise<ChatLimitsReply> {
  const update: Updateable<ExperimentsTable> = { updated_at: deps.clock().toISOString() };
  for (const key of Object.keys(CHAT_LIMIT_COLUMN) as (keyof ChatLimitOverrides)[]) {
    const value = changes[key];
    if (value !== undefined) update[CHAT_LIMIT_COLUMN[key]] = value;
  }
  if (!(await updateExperimentRow(deps.database.db, experimentId, update))) throw notFound(EXPERIMENT_NOT_FOUND);
  return getChatLimits(deps, defaults, experimentId);
}

/** Experiments whose chat budget is 80% or more spent, for the warning on every admin page. */
export async function budgetAlerts(
  deps: AppDeps,
  defaults: ChatLimits,
): Promise<(BudgetStatus & { experimentId: string; name: string })[]> {
  const { db } = deps.database;
  const [experiments, spent] = await Promise.all([listExperimentBudgets(db), spentByExperiment(db)]);
  const alerts = [];
  for (const experiment of experiments) {
    const budget = toNumberOrNull(experiment.chat_budget_usd) ?? defaults.budgetUsd;
    const status = budgetStatus(spent.get(experiment.id) ?? 0, budget);
    if (status.state === 'warning' || status.state === 'stopped') {
      alerts.push({ ...status, experimentId: experiment.id, name: experiment.name });
    }
  }
  return alerts;
}

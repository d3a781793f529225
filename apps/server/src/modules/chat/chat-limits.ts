import {
  admitsNewParticipants,
  BUDGET_WARNING_SHARE,
  type BudgetStatus,
  type ChatCloseReason,
  type ChatLimitOverrides,
  type ChatLimits,
} from '@studychat/contracts';

/**
 * The limits that apply in an experiment: its own values over the environment's defaults. Every
 * reader of limits goes through here, so a versioned study definition can later supply them too.
 */
export function resolveChatLimits(defaults: ChatLimits, overrides: ChatLimitOverrides): ChatLimits {
  return {
    maxMessages: overrides.maxMessages ?? defaults.maxMessages,
    maxMessageChars: overrides.maxMessageChars ?? defaults.maxMessageChars,
    replyTokens: overrides.replyTokens ?? defaults.replyTokens,
    historyTokens: overrides.historyTokens ?? defaults.historyTokens,
    participantTokens: overrides.participantTokens ?? defaults.participantTokens,
    budgetUsd: overrides.budgetUsd ?? defaults.budgetUsd,
    admitPercent: overrides.admitPercent ?? defaults.admitPercent,
  };
}

/**
 * none: no budget; ok; warning from 80% spent; stopped from 100% (no new model calls). New participants are
 * admitted until the admit percent of the budget is spent.
 */
export function budgetStatus(spentUsd: number, budgetUsd: number | null, admitPercent: number): BudgetStatus {
  const admitting = admitsNewParticipants(spentUsd, budgetUsd, admitPercent);
  if (budgetUsd === null) return { state: 'none', spentUsd, budgetUsd, admitting };
  const state = spentUsd >= budgetUsd ? 'stopped' : spentUsd >= budgetUsd * BUDGET_WARNING_SHARE ? 'warning' : 'ok';
  return { state, spentUsd, budgetUsd, admitting };
}

/** What a thread has used, to hold against its limits. */
export interface ChatUsage {
  /** Messages the participant has sent in the thread. */
  userMessages: number;
  /** Input plus output tokens of the thread's replies. */
  tokensUsed: number;
  /** What the experiment's chats have cost in USD; null when it was not read (no budget). */
  experimentSpentUsd: number | null;
}

/**
 * The limit the thread has reached, if any. Checked before each model call (nothing over a limit is
 * sent) and after each reply (so the page learns at once that the chat has ended).
 */
export function reachedLimit(limits: ChatLimits, usage: ChatUsage): Exclude<ChatCloseReason, 'completed'> | null {
  if (usage.userMessages >= limits.maxMessages) return 'message_limit';
  if (usage.tokensUsed >= limits.participantTokens) return 'token_limit';
  if (limits.budgetUsd !== null && usage.experimentSpentUsd !== null && usage.experimentSpentUsd >= limits.budgetUsd)
    return 'budget';
  return null;
}

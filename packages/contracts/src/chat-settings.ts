import { z } from 'zod';
import { BUDGET_STATES, CHAT_LIMIT_MAX } from './chat-limits.js';

/** The chat's limits for one experiment (defaults from the environment, or the experiment's own). */
export const ChatLimits = z.object({
  /** Messages a participant may send in their thread; the chat ends after the reply to the last one. */
  maxMessages: z.number().int(),
  /** Characters in one participant message (longer ones are refused with 400, never cut). */
  maxMessageChars: z.number().int(),
  /** Tokens of one visible reply (the model's max tokens; Anthropic's thinking budget comes on top). */
  replyTokens: z.number().int(),
  /** Tokens of history sent with each request, system prompt included; the oldest turns are dropped first. */
  historyTokens: z.number().int(),
  /** Input plus output tokens one participant's chat may use; the chat ends once they are used up. */
  participantTokens: z.number().int(),
  /** What the experiment's chats may cost in USD; null: no budget. Warning at 80%, stop at 100%. */
  budgetUsd: z.number().nullable(),
  /** Percent of the budget spent after which no new participant may join; those already in finish. */
  admitPercent: z.number().int(),
});
export type ChatLimits = z.infer<typeof ChatLimits>;

const whole = (max: number) => z.number().int('must be a whole number').min(1, 'must be at least 1').max(max);

/** An experiment's own values; null (or absent) means the default from the environment applies. */
export const ChatLimitOverrides = z.object({
  maxMessages: whole(CHAT_LIMIT_MAX.maxMessages).nullable(),
  maxMessageChars: whole(CHAT_LIMIT_MAX.maxMessageChars).nullable(),
  replyTokens: whole(CHAT_LIMIT_MAX.replyTokens).nullable(),
  historyTokens: whole(CHAT_LIMIT_MAX.historyTokens).nullable(),
  participantTokens: whole(CHAT_LIMIT_MAX.participantTokens).nullable(),
  budgetUsd: z.number().positive('must be more than 0').max(CHAT_LIMIT_MAX.budgetUsd).nullable(),
  admitPercent: whole(CHAT_LIMIT_MAX.admitPercent).nullable(),
});
export type ChatLimitOverrides = z.infer<typeof ChatLimitOverrides>;

export const BudgetStatus = z.object({
  /** none: no budget; warning: 80% or more spent; stopped: all spent, no new model calls. */
  state: z.enum(BUDGET_STATES),
  spentUsd: z.number(),
  budgetUsd: z.number().nullable(),
  /** New participants may still join (below the experiment's admit percent of its budget). */
  admitting: z.boolean(),
});
export type BudgetStatus = z.infer<typeof BudgetStatus>;

export const ChatLimitsReply = z.object({
  defaults: ChatLimits,
  overrides: ChatLimitOverrides,
  effective: ChatLimits,
  budget: BudgetStatus,
});
export type ChatLimitsReply = z.infer<typeof ChatLimitsReply>;

/** Sends only the fields to change; null puts a field back to its default. */
export const UpdateChatLimitsBody = z.object({ overrides: ChatLimitOverrides.partial().strict() });
export type UpdateChatLimitsBody = z.infer<typeof UpdateChatLimitsBody>;

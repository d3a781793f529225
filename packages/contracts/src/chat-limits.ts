// Zod-free rules and texts of the chat's limits, shared by the server and the chat page.
import { CHAT_MESSAGE_MAX_LENGTH } from './constants.js';

/** Largest values an admin may set, so a typo cannot switch a limit off in practice. */
export const CHAT_LIMIT_MAX = {
  maxMessages: 1000,
  maxMessageChars: CHAT_MESSAGE_MAX_LENGTH,
  replyTokens: 64_000,
  historyTokens: 1_000_000,
  participantTokens: 100_000_000,
  budgetUsd: 1_000_000,
  admitPercent: 100,
} as const;

/** Percent of the budget spent after which no new participant is admitted, unless an experiment sets its own. */
export const DEFAULT_ADMIT_PERCENT = 95;

/**
 * What someone who cannot join reads (409 NOT_ADMITTING, and the study's landing page): the experiment's chat
 * budget is nearly spent, so it admits no new participants; those already in finish (docs/decisions/0073).
 */
export const NOT_ADMITTING_TEXT =
  'Sorry, this study is not taking new participants any more, so you cannot start it. Please return your submission on Prolific. Thank you for your interest.';

/**
 * Whether an experiment still admits new participants: without a budget always; with one, until `admitPercent`
 * of it is spent.
 */
export function admitsNewParticipants(spentUsd: number, budgetUsd: number | null, admitPercent: number): boolean {
  return budgetUsd === null || spentUsd < (budgetUsd * admitPercent) / 100;
}

export const BUDGET_STATES = ['none', 'ok', 'warning', 'stopped'] as const;
export type BudgetState = (typeof BUDGET_STATES)[number];
/** Share of the budget spent at which the admin pages warn. */
export const BUDGET_WARNING_SHARE = 0.8;

/** Why a participant's chat ended before they chose to leave it. */
export const CHAT_CLOSE_REASONS = ['message_limit', 'token_limit', 'budget', 'completed'] as const;
export type ChatCloseReason = (typeof CHAT_CLOSE_REASONS)[number];
/** The reasons that are a limit ending the chat (not the participant's completion): the data flags them. */
export const CHAT_LIMIT_REASONS = ['message_limit', 'token_limit', 'budget'] as const;
export type ChatLimitReason = (typeof CHAT_LIMIT_REASONS)[number];

/** The limit that ended a chat, from a thread's stored reason; null for none (or one this version does not know). */
export function chatLimitReason(stored: string | null | undefined): ChatLimitReason | null {
  return (CHAT_LIMIT_REASONS as readonly string[]).includes(stored ?? '') ? (stored as ChatLimitReason) : null;
}

/** What the participant reads when their chat has ended, per reason (also the 409's error text). */
export const CHAT_CLOSED_TEXT: Record<ChatCloseReason, string> = {
  message_limit:
    'You have sent as many messages as this chat allows, so the conversation has ended. Thank you! Please select Proceed to continue.',
  token_limit:
    'This conversation has reached its length limit and has ended. Thank you! Please select Proceed to continue.',
  budget:
    'The assistant is no longer available in this study, so the conversation has ended. Thank you! Please select Proceed to continue.',
  completed: 'You have already finished this study, so the chat is closed.',
};

/**
 * Characters in a message as a person counts them (code points: an emoji is one), the same on
 * the server and in the chat box's counter.
 */
export function messageLength(text: string): number {
  return Array.from(text).length;
}

/** The 400 text for a message over the experiment's limit; the box shows the same words. */
export function messageTooLongText(length: number, max: number): string {
  return `Your message is ${length.toLocaleString('en-US')} characters long; this chat takes at most ${max.toLocaleString('en-US')}. Please shorten it and send it again.`;
}

/**
 * Whether the participant may leave the chat for the post-survey: the chat is complete (spec
 * section 9), or it was ended by a limit (the model must never block the journey).
 */
export function chatAllowsProceed(progress: {
  complete: boolean;
  closed: { reason: ChatCloseReason } | null;
}): boolean {
  return progress.complete || progress.closed !== null;
}

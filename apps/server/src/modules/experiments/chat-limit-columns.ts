import type { ChatLimitOverrides } from '@studychat/contracts';
import type { ExperimentsTable } from '../../db/schema.js';
import { toNumberOrNull } from '../../db/values.js';

// The experiment's own chat limits as columns of its row: the experiments module writes them, the chat module
// reads them with its thread (chat.repository.ts readThread).

/** The column of each chat limit an experiment may set (null: the default applies). */
export const CHAT_LIMIT_COLUMN = {
  maxMessages: 'chat_max_messages',
  maxMessageChars: 'chat_max_message_chars',
  replyTokens: 'chat_reply_tokens',
  historyTokens: 'chat_history_tokens',
  participantTokens: 'chat_participant_tokens',
  budgetUsd: 'chat_budget_usd',
  admitPercent: 'chat_admit_percent',
} as const satisfies Record<keyof ChatLimitOverrides, keyof ExperimentsTable>;

/** The experiment's chat limit columns as overrides (nulls where the default applies). */
export function toChatLimitOverrides(
  row: Record<Exclude<(typeof CHAT_LIMIT_COLUMN)[keyof ChatLimitOverrides], 'chat_budget_usd'>, number | null> & {
    chat_budget_usd: number | string | null;
  },
): ChatLimitOverrides {
  return {
    maxMessages: row.chat_max_messages,
    maxMessageChars: row.chat_max_message_chars,
    replyTokens: row.chat_reply_tokens,
    historyTokens: row.chat_history_tokens,
    participantTokens: row.chat_participant_tokens,
    budgetUsd: toNumberOrNull(row.chat_budget_usd),
    admitPercent: row.chat_admit_percent,
  };
}

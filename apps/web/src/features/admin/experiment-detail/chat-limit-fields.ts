import type { ChatLimitOverrides, ChatLimits } from '@studychat/contracts/web';

export type LimitKey = keyof ChatLimits;

/** How each limit is labelled and explained on the experiment page. */
export const LIMIT_FIELDS: { key: LimitKey; label: string; hint: string; unit: string }[] = [
  {
    key: 'maxMessages',
    label: 'Messages per participant',
    hint: 'The chat ends after the reply to the last one.',
    unit: 'messages',
  },
  {
    key: 'maxMessageChars',
    label: 'Characters per message',
    hint: 'Longer messages are refused, never cut.',
    unit: 'characters',
  },
  { key: 'replyTokens', label: 'Reply tokens', hint: 'Longest reply the model may write.', unit: 'tokens' },
  {
    key: 'historyTokens',
    label: 'History tokens',
    hint: 'Conversation sent with each message, system prompt included; oldest turns are dropped first.',
    unit: 'tokens',
  },
  {
    key: 'participantTokens',
    label: 'Tokens per participant',
    hint: 'The chat ends once they are used.',
    unit: 'tokens',
  },
  { key: 'budgetUsd', label: 'Budget (USD)', hint: 'Warning at 80%, no new replies at 100%.', unit: 'USD' },
  {
    key: 'admitPercent',
    label: 'Admit new participants until (% of budget spent)',
    hint: 'From then on the study page turns newcomers away; those already in finish. 1 to 100.',
    unit: '%',
  },
];

export type LimitForm = Record<LimitKey, string>;

export function limitFormFrom(overrides: ChatLimitOverrides): LimitForm {
  const form = {} as LimitForm;
  for (const { key } of LIMIT_FIELDS) form[key] = overrides[key] === null ? '' : String(overrides[key]);
  return form;
}

/**
 * What to send: each field that changed, as a number, or null when it was emptied (back to the default).
 * Returns an error text for a value that is not a positive number (whole, except the budget).
 */
export function limitChanges(
  overrides: ChatLimitOverrides,
  form: LimitForm,
): { changes: Partial<ChatLimitOverrides>; error: string | null } {
  const changes: Partial<ChatLimitOverrides> = {};
  for (const { key, label } of LIMIT_FIELDS) {
    const text = form[key].trim();
    const value = text === '' ? null : Number(text);
    if (
      value !== null &&
      (!Number.isFinite(value) ||
        value <= 0 ||
        (key !== 'budgetUsd' && !Number.isInteger(value)) ||
        (key === 'admitPercent' && value > 100))
    ) {
      const wanted =
        key === 'budgetUsd'
          ? 'positive number'
          : key === 'admitPercent'
            ? 'whole number from 1 to 100'
            : 'whole number above 0';
      return { changes: {}, error: `${label}: enter a ${wanted}, or leave it empty for the default.` };
    }
    if (value !== overrides[key]) changes[key] = value;
  }
  return { changes, error: null };
}

export function formatLimit(key: LimitKey, value: number | null): string {
  if (value === null) return 'no budget';
  if (key === 'admitPercent') return `${value}%`;
  return key === 'budgetUsd'
    ? `$${value.toLocaleString('en-US', { maximumFractionDigits: 2 })}`
    : value.toLocaleString('en-US');
}

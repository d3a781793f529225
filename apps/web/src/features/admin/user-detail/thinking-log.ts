import type { ThinkingEntry } from '@studychat/contracts/web';

export const THINKING_PARSE_ERROR = 'Failed to parse log';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * Parses a stored thinking log (a JSON array of `thinking` and `redacted_thinking` blocks).
 * Returns null when there is no log; anything malformed gives one error entry (spec section 3).
 */
export function parseThinkingLog(log: string | null | undefined): ThinkingEntry[] | null {
  if (log === null || log === undefined || log.trim() === '') return null;
  const failed: ThinkingEntry[] = [{ type: 'error', text: THINKING_PARSE_ERROR }];
  let parsed: unknown;
  try {
    parsed = JSON.parse(log);
  } catch {
    return failed;
  }
  if (!Array.isArray(parsed)) return failed;
  const entries: ThinkingEntry[] = [];
  for (const item of parsed) {
    if (!isRecord(item)) return failed;
    if (item.type === 'thinking' && typeof item.thinking === 'string')
      entries.push({ type: 'thinking', thinking: item.thinking });
    else if (item.type === 'redacted_thinking') entries.push({ type: 'redacted_thinking' });
    else return failed;
  }
  return entries;
}

/** The text an admin sees for one entry. */
export function thinkingEntryText(entry: ThinkingEntry): string {
  switch (entry.type) {
    case 'thinking':
      return `[THINKING]: ${entry.thinking}`;
    case 'redacted_thinking':
      return '[REDACTED THINKING]';
    case 'error':
      return entry.text;
  }
}

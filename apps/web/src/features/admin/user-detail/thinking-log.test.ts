import { describe, expect, it } from 'vitest';
import { parseThinkingLog, thinkingEntryText, THINKING_PARSE_ERROR } from './thinking-log';

describe('parseThinkingLog', () => {
  it('reads thinking and redacted entries in order', () => {
    const log = JSON.stringify([
      { type: 'thinking', thinking: 'The parent is worried about autism.' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'thinking', thinking: 'Cite the evidence.' },
    ]);
    const entries = parseThinkingLog(log);
    expect(entries?.map(thinkingEntryText)).toEqual([
      '[THINKING]: The parent is worried about autism.',
      '[REDACTED THINKING]',
      '[THINKING]: Cite the evidence.',
    ]);
  });

  it('gives no entries (so no toggle) when there is no log', () => {
    expect(parseThinkingLog(null)).toBeNull();
    expect(parseThinkingLog('')).toBeNull();
  });

  it('keeps an empty log as an empty list', () => {
    expect(parseThinkingLog('[]')).toEqual([]);
  });

  it.each([['{not json'], ['{"type":"thinking"}'], ['[1, 2]'], ['[{"type":"thinking"}]'], ['[{"type":"other"}]']])(
    'turns a broken log %s into one "Failed to parse log" entry',
    (log) => {
      const entries = parseThinkingLog(log);
      expect(entries).toEqual([{ type: 'error', text: THINKING_PARSE_ERROR }]);
      expect(entries?.map(thinkingEntryText)).toEqual(['Failed to parse log']);
    },
  );
});

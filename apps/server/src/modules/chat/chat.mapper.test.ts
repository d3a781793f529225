import { describe, expect, it } from 'vitest';
import type { ChatMessageRow } from '../../db/schema.js';
import { toProgress } from '../journey/chat-facts.js';
import { toHistory } from './chat.mapper.js';

let position = 0;
function row(
  role: 'user' | 'assistant',
  content: string,
  status: ChatMessageRow['status'] = 'complete',
): ChatMessageRow {
  position += 1;
  return {
    id: `m${position}`,
    thread_id: 't',
    position,
    role,
    content,
    is_initial: position === 1,
    status,
    error_message: null,
    model_used: null,
    input_tokens: null,
    output_tokens: null,
    uncached_input_tokens: null,
    cache_write_tokens: null,
    cache_read_tokens: null,
    queue_ms: null,
    fallback_from: null,
    cost_usd: null,
    usage_estimated: false,
    first_token_ms: null,
    total_ms: null,
    stop_reason: null,
    thinking_log: null,
    study_version_id: null,
    created_at: '2026-11-20T10:00:00.000Z',
  };
}

describe('chat mapper', () => {
  it('leaves turns without text out of the model history', () => {
    const rows = [
      row('assistant', 'Hello'),
      row('user', 'Q1'),
      row('assistant', '', 'error'),
      row('user', 'Q1'),
      row('assistant', ''),
      row('user', 'Q2'),
      row('assistant', 'Partial', 'error'),
      row('user', 'Q3'),
    ];
    expect(toHistory(rows)).toEqual([
      { role: 'assistant', content: 'Hello' },
      { role: 'user', content: 'Q1' },
      { role: 'user', content: 'Q1' },
      { role: 'user', content: 'Q2' },
      { role: 'assistant', content: 'Partial' },
      { role: 'user', content: 'Q3' },
    ]);
  });

  it('counts a round for each participant message with a complete reply', () => {
    const rows = [
      row('assistant', 'Hello'),
      row('user', ' Q1 '),
      row('assistant', '', 'error'),
      row('user', 'Q1'),
      row('assistant', 'A1'),
      row('user', 'Q2'),
      row('assistant', 'Part', 'error'),
      row('user', 'Q3 in flight'),
    ];
    expect(toProgress(rows)).toEqual({ rounds: 1, chars: 2, points: 11, complete: false });
  });
});

import type { AdminMessage } from '@studychat/contracts/web';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MessageItem } from './MessageItem';

const base: AdminMessage = {
  id: '00000000-0000-4000-8000-000000000001',
  role: 'assistant',
  content: 'Measles is',
  created_at: '2026-11-01T10:10:00.000Z',
  status: 'interrupted',
  error_message: 'The server stopped while writing this reply; the text saved so far is kept.',
  thinking_log: null,
  model_used: null,
  tokens_used: null,
  input_tokens: null,
  output_tokens: null,
  uncached_input_tokens: null,
  cache_write_tokens: null,
  cache_read_tokens: null,
  cost_usd: null,
  queue_ms: null,
  fallback_from: null,
  first_token_ms: null,
  total_ms: null,
  stop_reason: null,
};

describe('MessageItem', () => {
  it('marks a reply that did not complete, with the reason, and nothing on a complete one', () => {
    const { unmount } = render(
      <ol>
        <MessageItem message={base} />
      </ol>,
    );
    expect(screen.getByText('Interrupted')).toBeInTheDocument();
    expect(screen.getByText('Measles is')).toBeInTheDocument();
    expect(screen.getByText(base.error_message ?? '')).toBeInTheDocument();
    unmount();
    render(
      <ol>
        <MessageItem
          message={{ ...base, status: 'empty', content: '', error_message: 'The model answered with no text' }}
        />
        <MessageItem
          message={{ ...base, id: '00000000-0000-4000-8000-000000000002', status: 'complete', error_message: null }}
        />
      </ol>,
    );
    expect(screen.getByText('Empty reply')).toBeInTheDocument();
    expect(screen.queryByText('Interrupted')).not.toBeInTheDocument();
  });
});

import { describe, expect, it } from 'vitest';
import { chatReducer, initialChat } from './chat-state';

describe('the chat reducer', () => {
  it('streams text into its bubble and puts unsent text back without losing what was typed since', () => {
    let state = initialChat(null, null);
    expect(state.status).toBe('idle');
    state = chatReducer(state, {
      type: 'append',
      messages: [{ id: 'r', role: 'assistant', content: '', created_at: '2026-11-28T00:00:00.000Z', loading: true }],
    });
    state = chatReducer(state, { type: 'text', id: 'r', piece: 'Hel' });
    state = chatReducer(state, { type: 'text', id: 'r', piece: 'lo' });
    expect(state.messages).toEqual([expect.objectContaining({ id: 'r', content: 'Hello', loading: false })]);
    state = chatReducer(state, { type: 'draft', draft: 'typed since' });
    state = chatReducer(state, { type: 'restore-draft', unsent: 'first' });
    expect(state.draft).toBe('first\ntyped since');
    state = chatReducer(state, { type: 'patch', id: 'r', change: () => null });
    expect(state.messages).toEqual([]);
  });

  it('restores a stored thread first, and begins again when the thread is gone', () => {
    const stored = {
      threadId: 't',
      messages: [],
      progress: { rounds: 1, chars: 2, points: 11, complete: false, closed: null },
    };
    let state = initialChat(stored, null);
    expect(state).toMatchObject({ status: 'restoring', threadId: 't' });
    state = chatReducer(state, { type: 'reset' });
    expect(state).toMatchObject({ status: 'idle', threadId: null, messages: [], progress: { rounds: 0 } });
  });
});

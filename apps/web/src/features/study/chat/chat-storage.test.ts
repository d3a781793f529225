import { describe, expect, it } from 'vitest';
import { experimentKeys } from '../../../lib/storage-keys';
import { clearChat, loadChat, saveChat } from './chat-storage';

const EXP = 'exp-1';
const keys = experimentKeys(EXP);
const msg = (id: string, role: 'user' | 'assistant', content: string, loading?: boolean) => ({
  id,
  role,
  content,
  created_at: '2026-11-21T00:00:00.000Z',
  ...(loading ? { loading } : {}),
});

describe('chat storage', () => {
  it('writes every key spec section 3 names and reads them back', () => {
    saveChat(EXP, {
      threadId: 't-1',
      messages: [msg('a', 'assistant', 'Hi'), msg('b', 'user', 'Hello there')],
      progress: { rounds: 1, chars: 11, points: 15.5, complete: false, closed: null },
    });
    expect(localStorage.getItem('experiment_exp-1_threadId')).toBe('t-1');
    expect(localStorage.getItem('experiment_exp-1_rounds')).toBe('1');
    expect(localStorage.getItem('experiment_exp-1_chars')).toBe('11');
    expect(localStorage.getItem('experiment_exp-1_points')).toBe('15.5');
    expect(localStorage.getItem('experiment_exp-1_complete')).toBe('false');
    expect(JSON.parse(localStorage.getItem('experiment_exp-1_messages') ?? '')).toHaveLength(2);
    expect(loadChat(EXP)).toEqual({
      threadId: 't-1',
      messages: [msg('a', 'assistant', 'Hi'), msg('b', 'user', 'Hello there')],
      progress: { rounds: 1, chars: 11, points: 15.5, complete: false, closed: null },
    });
  });

  it('leaves loading bubbles out', () => {
    saveChat(EXP, {
      threadId: 't-1',
      messages: [msg('a', 'user', 'Q'), msg('b', 'assistant', '', true)],
      progress: { rounds: 0, chars: 0, points: 0, complete: false, closed: null },
    });
    expect(loadChat(EXP).messages.map((m) => m.id)).toEqual(['a']);
  });

  it('reads nothing stored as an empty chat, and ignores malformed values', () => {
    expect(loadChat(EXP)).toEqual({
      threadId: null,
      messages: [],
      progress: { rounds: 0, chars: 0, points: 0, complete: false, closed: null },
    });
    localStorage.setItem(keys.messages, '{not json');
    localStorage.setItem(keys.rounds, 'many');
    expect(loadChat(EXP).messages).toEqual([]);
    expect(loadChat(EXP).progress.rounds).toBe(0);
    localStorage.setItem(keys.messages, JSON.stringify([msg('ok', 'user', 'x'), { id: 1, role: 'system' }, null]));
    expect(loadChat(EXP).messages).toEqual([msg('ok', 'user', 'x')]);
  });

  it('derives points and completion from rounds and characters, so an edited flag cannot unlock Proceed', () => {
    localStorage.setItem(keys.rounds, '2');
    localStorage.setItem(keys.chars, '500');
    localStorage.setItem(keys.points, '1000');
    localStorage.setItem(keys.complete, 'true');
    expect(loadChat(EXP).progress).toEqual({ rounds: 2, chars: 500, points: 270, complete: false, closed: null });
    localStorage.setItem(keys.rounds, '3');
    expect(loadChat(EXP).progress.complete).toBe(true);
  });

  it("clears only this experiment's chat keys", () => {
    saveChat(EXP, {
      threadId: 't',
      messages: [],
      progress: { rounds: 3, chars: 200, points: 130, complete: true, closed: null },
    });
    localStorage.setItem(keys.currentSection, '3');
    localStorage.setItem('token', 'tok');
    localStorage.setItem(experimentKeys('other').threadId, 't2');
    clearChat(EXP);
    for (const key of [keys.threadId, keys.messages, keys.rounds, keys.chars, keys.points, keys.complete])
      expect(localStorage.getItem(key)).toBeNull();
    expect(localStorage.getItem(keys.currentSection)).toBe('3');
    expect(localStorage.getItem('token')).toBe('tok');
    expect(localStorage.getItem(experimentKeys('other').threadId)).toBe('t2');
  });
});

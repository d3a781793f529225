import { describe, expect, it } from 'vitest';
import { getAt, listAt, movedItem, pathKey, removeAt, setAt, withoutItem } from './draft-path';

describe('draft paths', () => {
  const draft = { pre: { questions: [{ key: 'age', options: [{ value: 'a' }] }] }, title: 'T' };

  it('reads a place by its path, and undefined where the way is missing or mistyped', () => {
    expect(getAt(draft, ['pre', 'questions', 0, 'options', 0, 'value'])).toBe('a');
    expect(getAt(draft, ['pre', 'questions', 3, 'key'])).toBeUndefined();
    expect(getAt(draft, ['title', 'length'])).toBeUndefined();
    expect(getAt(draft, ['pre', 'constructor'])).toBeUndefined();
    expect(pathKey(['pre', 'questions', 0, 'key'])).toBe('pre.questions.0.key');
  });

  it('writes a copy, leaving the original and the untouched branches as they were', () => {
    const next = setAt(draft, ['pre', 'questions', 0, 'key'], 'age_group');
    expect(next.pre.questions[0]?.key).toBe('age_group');
    expect(draft.pre.questions[0]?.key).toBe('age');
    expect(next.pre.questions[0]?.options).toBe(draft.pre.questions[0]?.options);
  });

  it('creates missing objects on the way and removes a key set to undefined', () => {
    const withSettings = setAt(draft, ['chat', 'conditions', 'mmr', 'settings', 'model'], 'claude-x');
    expect(getAt(withSettings, ['chat', 'conditions', 'mmr', 'settings'])).toEqual({ model: 'claude-x' });
    const without = setAt(withSettings, ['chat', 'conditions', 'mmr', 'settings', 'model'], undefined);
    expect(getAt(without, ['chat', 'conditions', 'mmr', 'settings'])).toEqual({});
  });

  it('removes a key and the objects it leaves empty, never a list or a non-empty object', () => {
    const study = { chat: { completion: { mmr: { rounds: 2 } }, other: 1 }, pre: { questions: [{ key: 'a' }] } };
    expect(removeAt(study, ['chat', 'completion', 'mmr', 'rounds'])).toEqual({ chat: { other: 1 }, pre: study.pre });
    expect(removeAt(study, ['pre', 'questions', 0, 'key'])).toEqual({ chat: study.chat, pre: { questions: [{}] } });
  });

  it('lists, removes and moves items', () => {
    expect(listAt(draft, ['title'])).toEqual([]);
    expect(withoutItem(['a', 'b', 'c'], 1)).toEqual(['a', 'c']);
    expect(movedItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(movedItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
  });
});

import { describe, expect, it } from 'vitest';
import { engagementText, roundsText } from './ChatProgressBar';
import { splitContent } from './message-content';

describe('splitContent', () => {
  it('keeps plain text as one part', () => {
    expect(splitContent('Just words\nover two lines')).toEqual([{ kind: 'text', text: 'Just words\nover two lines' }]);
  });

  it('splits triple-backtick blocks out, dropping the language word and keeping indentation', () => {
    expect(splitContent('Before\n```python\ndef f():\n    return 1\n```\nAfter')).toEqual([
      { kind: 'text', text: 'Before\n' },
      { kind: 'code', text: 'def f():\n    return 1' },
      { kind: 'text', text: 'After' },
    ]);
  });

  it('handles several blocks and a block on one line', () => {
    expect(splitContent('```a b```x```\nc\n```')).toEqual([
      { kind: 'code', text: 'a b' },
      { kind: 'text', text: 'x' },
      { kind: 'code', text: 'c' },
    ]);
  });

  it('runs an unclosed block (still streaming) to the end', () => {
    expect(splitContent('See:\n```\nline 1\nline')).toEqual([
      { kind: 'text', text: 'See:\n' },
      { kind: 'code', text: 'line 1\nline' },
    ]);
  });

  it('keeps markup as literal text', () => {
    expect(splitContent('<script>x</script>')).toEqual([{ kind: 'text', text: '<script>x</script>' }]);
  });
});

describe('progress texts', () => {
  it("shows 'Engagement: x/100' in whole points and 'Rounds: n/3', capped at the targets", () => {
    expect(engagementText({ rounds: 1, chars: 9, points: 14.5, complete: false, closed: null })).toBe(
      'Engagement: 14/100',
    );
    expect(roundsText({ rounds: 2, chars: 9, points: 24.5, complete: false, closed: null })).toBe('Rounds: 2/3');
    expect(engagementText({ rounds: 5, chars: 400, points: 250, complete: true, closed: null })).toBe(
      'Engagement: 100/100',
    );
    expect(roundsText({ rounds: 5, chars: 400, points: 250, complete: true, closed: null })).toBe('Rounds: 3/3');
  });
});

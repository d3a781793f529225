import { describe, expect, it } from 'vitest';
import { lineDiff } from './line-diff';

describe('lineDiff', () => {
  it('marks removed and added lines and keeps the rest', () => {
    expect(lineDiff('a\nb\nc\nd', 'a\nc\nx\nd')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'same', text: 'c' },
      { kind: 'added', text: 'x' },
      { kind: 'same', text: 'd' },
    ]);
  });

  it('handles identical and empty texts, and gives up past its limit', () => {
    expect(lineDiff('a\nb', 'a\nb')?.every((l) => l.kind === 'same')).toBe(true);
    expect(lineDiff('', 'x')).toEqual([
      { kind: 'removed', text: '' },
      { kind: 'added', text: 'x' },
    ]);
    expect(lineDiff('a\nb\nc', 'x\ny\nz', 4)).toBeNull();
  });
});

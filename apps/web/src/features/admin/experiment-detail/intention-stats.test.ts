import type { DetailedParticipantRow } from '@studychat/contracts/web';
import { describe, expect, it } from 'vitest';
import { intentionByCondition } from './intention-stats';

let n = 0;
function row(
  condition: string | null,
  pre: number | null,
  post: number | null,
  isTest = false,
): DetailedParticipantRow {
  n += 1;
  return {
    assignment_id: `a${n}`,
    user_id: `u${n}`,
    assigned_condition: condition,
    last_login_at: null,
    chat_turns: 0,
    user_char_count: 0,
    pre_intent: pre,
    post_intent: post,
    delta: pre !== null && post !== null ? post - pre : null,
    status: 'in_progress',
    is_test: isTest,
  };
}

describe('intentionByCondition', () => {
  it('averages before and after per condition over participants with both values, mmr first', () => {
    const stats = intentionByCondition(
      [
        row('control', 4, 4),
        row('mmr', 3, 6),
        row('mmr', 4, 5),
        row('mmr', 5, null),
        row(null, 2, 7),
        row('control', null, 3),
      ],
      ['mmr', 'control'],
    );
    expect(stats).toEqual([
      { condition: 'mmr', n: 2, meanPre: 3.5, meanPost: 5.5 },
      { condition: 'control', n: 1, meanPre: 4, meanPost: 4 },
    ]);
  });

  it("follows the study's order of its own conditions, then any other condition found", () => {
    const stats = intentionByCondition(
      [row('teeth', 4, 4), row('screens', 3, 5), row('sleep', 2, 6), row('legacy', 1, 1)],
      ['sleep', 'teeth', 'screens'],
    );
    expect(stats.map((s) => s.condition)).toEqual(['sleep', 'teeth', 'screens', 'legacy']);
  });

  it('leaves test runs (previews) out', () => {
    expect(intentionByCondition([row('mmr', 1, 7, true), row('mmr', 3, 5)])).toEqual([
      { condition: 'mmr', n: 1, meanPre: 3, meanPost: 5 },
    ]);
    expect(intentionByCondition([row('control', 1, 7, true)])).toEqual([]);
  });

  it('is empty when nobody has both values', () => {
    expect(intentionByCondition([row('mmr', 3, null)])).toEqual([]);
  });
});

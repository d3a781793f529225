import type { DetailedParticipantRow } from '@studychat/contracts/web';

export interface ConditionIntention {
  condition: string;
  /** Participants with both a baseline and a post intention. */
  n: number;
  meanPre: number;
  meanPost: number;
}

/**
 * Mean intention before and after, per condition, over real participants (no test runs) with both values;
 * in the study's order of conditions (`order`), then any other condition found, by name.
 */
export function intentionByCondition(
  rows: readonly DetailedParticipantRow[],
  order: readonly string[] = [],
): ConditionIntention[] {
  const sums = new Map<string, { n: number; pre: number; post: number }>();
  for (const row of rows) {
    if (row.is_test || row.assigned_condition === null || row.pre_intent === null || row.post_intent === null) continue;
    const sum = sums.get(row.assigned_condition) ?? { n: 0, pre: 0, post: 0 };
    sum.n += 1;
    sum.pre += row.pre_intent;
    sum.post += row.post_intent;
    sums.set(row.assigned_condition, sum);
  }
  const all = [...order, ...[...sums.keys()].filter((c) => !order.includes(c)).sort()];
  return all.flatMap((condition) => {
    const sum = sums.get(condition);
    if (!sum) return [];
    return [{ condition, n: sum.n, meanPre: sum.pre / sum.n, meanPost: sum.post / sum.n }];
  });
}

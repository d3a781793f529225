import type { Condition } from '../common.js';
import type { ConditionDeclaration } from './types.js';

export { builtInConditionList } from './mmr-study.conditions.js';

// Conditions are the study version's (docs/decisions/0061): every list of conditions is read from here.

/** The declared condition ids, in the study's order. */
export function conditionIds(study: { conditionList: readonly ConditionDeclaration[] }): Condition[] {
  return study.conditionList.map((c) => c.id);
}

/** Whether `value` is one of the study's conditions (a type guard). */
export function isStudyCondition(
  study: { conditionList: readonly ConditionDeclaration[] },
  value: unknown,
): value is Condition {
  return typeof value === 'string' && study.conditionList.some((c) => c.id === value);
}

/** The researchers' label of a condition; the id itself for an id the study does not declare. */
export function conditionLabel(study: { conditionList: readonly ConditionDeclaration[] }, id: string): string {
  return study.conditionList.find((c) => c.id === id)?.label ?? id;
}

/** A per-condition part's entry, which the schema guarantees for every declared condition. */
export function perConditionPart<T>(part: Record<string, T>, condition: Condition, what: string): T {
  const value = part[condition];
  if (value === undefined) throw new Error(`the study has no ${what} for condition "${condition}"`);
  return value;
}

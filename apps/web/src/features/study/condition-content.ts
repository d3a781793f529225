import type { ConditionContent, WebStudyDefinition } from '@studychat/contracts/web';

/**
 * The sections and topic of the participant's condition in the study (docs/decisions/0061). The guard lets a
 * page open only with one of the study's conditions; without one (an admin looking) it shows the last declared
 * condition, the control of the built-in study.
 */
export function conditionContent(study: WebStudyDefinition, condition: string | null): ConditionContent {
  const own = condition === null ? undefined : study.conditions[condition];
  if (own) return own;
  const last = study.conditionList[study.conditionList.length - 1];
  const fallback = last ? study.conditions[last.id] : undefined;
  if (!fallback) throw new Error('the study declares no conditions');
  return fallback;
}

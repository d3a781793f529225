import { AGE_GROUPS, POLITICAL_LEANINGS, SEXES } from '../constants.js';
import type { StudyDefinition, SurveyQuestion } from './types.js';

// The MMR study's pre-study survey as data (spec section 7): also what a stored version from before the
// pre-survey was data means (docs/decisions/0033). Not in the pages' shared fallback study: only the
// pre-survey page bundles it (the participant pages are held to 100 KB of JavaScript).

/** The spec's option labels: the value capitalised, and 'prefer-not' is 'Prefer not to say'. */
const label = (value: string) =>
  value === 'prefer-not' ? 'Prefer not to say' : value.charAt(0).toUpperCase() + value.slice(1);

const choice = (key: string, wording: string, values: readonly string[], labelOf = label): SurveyQuestion => ({
  key,
  wording,
  type: 'choice',
  options: values.map((value) => ({ value, label: labelOf(value) })),
  required: true,
});

export const mmrPreSurvey: StudyDefinition['pre'] = {
  title: 'Pre-Study Survey',
  intro: 'Please answer these three questions.',
  questions: [
    choice('age', 'What is your age group?', AGE_GROUPS, String),
    choice('sex', 'What was your sex at birth?', SEXES),
    choice('political_leaning', 'How would you describe your political views?', POLITICAL_LEANINGS),
  ],
};

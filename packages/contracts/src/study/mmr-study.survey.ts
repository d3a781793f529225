import { AGE_GROUPS, POLITICAL_LEANINGS, SEXES } from '../constants.js';
import type { EntryValues, StudyDefinition } from './types.js';

// The MMR study's answer keys and pre-study survey, as data (spec sections 4 and 7). They are also what a
// stored version from before these fields means (docs/decisions/0033): the keys and questions it ran with.

export const MMR_ENTRY_KEY = 'choice';
export const MMR_ENTRY_VALUES: EntryValues = { continue: 'questions', exit: 'confirm' };
export const MMR_BASELINE_KEY = 'vaccination_intention';

const SEX_LABELS: Record<(typeof SEXES)[number], string> = {
  female: 'Female',
  male: 'Male',
  other: 'Other',
  'prefer-not': 'Prefer not to say',
};
const LEANING_LABELS: Record<(typeof POLITICAL_LEANINGS)[number], string> = {
  liberal: 'Liberal',
  moderate: 'Moderate',
  conservative: 'Conservative',
  'prefer-not': 'Prefer not to say',
};

export const mmrPreSurvey: StudyDefinition['pre'] = {
  title: 'Pre-Study Survey',
  intro: 'Please answer these three questions.',
  questions: [
    {
      key: 'age',
      wording: 'What is your age group?',
      type: 'choice',
      options: AGE_GROUPS.map((value) => ({ value, label: value })),
      required: true,
    },
    {
      key: 'sex',
      wording: 'What was your sex at birth?',
      type: 'choice',
      options: SEXES.map((value) => ({ value, label: SEX_LABELS[value] })),
      required: true,
    },
    {
      key: 'political_leaning',
      wording: 'How would you describe your political views?',
      type: 'choice',
      options: POLITICAL_LEANINGS.map((value) => ({ value, label: LEANING_LABELS[value] })),
      required: true,
    },
  ],
};

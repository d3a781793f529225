import { MMR_BASELINE_KEY, MMR_ENTRY_KEY, MMR_ENTRY_VALUES, MMR_POST_KEY } from './mmr-study.keys.js';
import { mmrPreSurvey } from './mmr-study.survey.js';
import { withReminder } from './entry-reminder.js';
import type { StudyDefinition } from './types.js';
import { builtInConditionList } from './mmr-study.conditions.js';

/**
 * A stored definition, possibly from before the answer keys, the pre-study survey, the reminder and the
 * conditions were data.
 */
export type StoredStudyDefinition = Omit<StudyDefinition, 'entry' | 'baseline' | 'pre' | 'post' | 'conditionList'> & {
  conditionList?: StudyDefinition['conditionList'];
  entry: Omit<StudyDefinition['entry'], 'key' | 'values' | 'reminder'> &
    Partial<Pick<StudyDefinition['entry'], 'key' | 'values' | 'reminder'>>;
  baseline: Omit<StudyDefinition['baseline'], 'key'> & Partial<Pick<StudyDefinition['baseline'], 'key'>>;
  pre?: StudyDefinition['pre'];
  post: Omit<StudyDefinition['post'], 'key'> & Partial<Pick<StudyDefinition['post'], 'key'>>;
};

/**
 * A stored definition in today's shape (docs/decisions/0033): what a version written before the keys were
 * data leaves out is what it ran with, the MMR study's keys, pre-study survey and two conditions (0061). Newer versions pass as
 * they are. Plain code, no zod: the server applies it to every stored definition it reads.
 */
export function upgradeStudyDefinition(stored: StoredStudyDefinition): StudyDefinition {
  // The reminder was the scenario's second paragraph (0062); a scenario of one paragraph quoted nothing.
  const entry = withReminder(stored.entry) ?? { ...stored.entry, reminder: '' };
  return {
    ...stored,
    conditionList: stored.conditionList ?? builtInConditionList(),
    entry: {
      ...entry,
      key: entry.key ?? MMR_ENTRY_KEY,
      values: entry.values ?? { ...MMR_ENTRY_VALUES },
    },
    baseline: { ...stored.baseline, key: stored.baseline.key ?? MMR_BASELINE_KEY },
    pre: stored.pre ?? structuredClone(mmrPreSurvey),
    post: { ...stored.post, key: stored.post.key ?? MMR_POST_KEY },
  };
}

import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { parseJsonObject } from '../../db/values.js';

// Reads the answers that the journey's rules depend on from the stored responses.

/** What the journey needs to know of a participant's surveys, from one query. */
export interface SurveyFacts {
  entryChoice: 'confirm' | 'questions' | null;
  /** Baseline intention 1-7, or null when not answered. */
  baseline: number | null;
  pre: boolean;
  post: boolean;
}

/** The participant's survey facts (entry choice, baseline, whether pre and post exist) in one read. */
export async function surveyFacts(db: Kysely<DB>, userId: string, experimentId: string): Promise<SurveyFacts> {
  const rows = await db
    .selectFrom('survey_responses')
    .select(['survey_type', 'responses'])
    .where('user_id', '=', userId)
    .where('experiment_id', '=', experimentId)
    .execute();
  const answers = (type: string) => {
    const row = rows.find((r) => r.survey_type === type);
    return row ? (parseJsonObject(row.responses) ?? {}) : null;
  };
  const choice = answers('entry')?.choice;
  const intention = Number(answers('baseline')?.vaccination_intention);
  return {
    entryChoice: choice === 'confirm' || choice === 'questions' ? choice : null,
    baseline: Number.isInteger(intention) ? intention : null,
    pre: answers('pre') !== null,
    post: answers('post') !== null,
  };
}

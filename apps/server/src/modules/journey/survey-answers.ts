import type { EntryValues, StudyDefinition } from '@studychat/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { parseJsonObject } from '../../db/values.js';

// Reads the answers that the journey's rules depend on from the stored responses, under the answer keys
// and values the experiment's study declares (docs/decisions/0033).

/** The entry choice as the journey reads it: on to the study, or out with no concerns. */
export type EntryChoice = keyof EntryValues;

/** The role of a stored entry value in the study, or null when it is none of its two. */
export function entryChoiceOf(study: StudyDefinition, value: unknown): EntryChoice | null {
  if (value === study.entry.values.continue) return 'continue';
  if (value === study.entry.values.exit) return 'exit';
  return null;
}

/** The stored baseline intention as a whole number, or null. */
export function baselineOf(study: StudyDefinition, answers: Record<string, unknown> | null | undefined): number | null {
  const intention = Number(answers?.[study.baseline.key]);
  return Number.isInteger(intention) ? intention : null;
}

/** What the journey needs to know of a participant's surveys, from one query. */
export interface SurveyFacts {
  entryChoice: EntryChoice | null;
  /** Baseline intention 1-7, or null when not answered. */
  baseline: number | null;
  pre: boolean;
  post: boolean;
}

/** The participant's survey facts (entry choice, baseline, whether pre and post exist) in one read. */
export async function surveyFacts(
  db: Kysely<DB>,
  study: StudyDefinition,
  userId: string,
  experimentId: string,
): Promise<SurveyFacts> {
  const rows = await db
    .selectFrom('survey_responses')
    .select(['survey_type', 'responses'])
    .where('user_id', '=', userId)
    .where('experiment_id', '=', experimentId)
    .execute();
  return toSurveyFacts(study, rows);
}

/** The survey facts from the participant's stored responses (type and JSON text of each), by the study's keys. */
export function toSurveyFacts(
  study: StudyDefinition,
  rows: readonly { survey_type: string; responses: string }[],
): SurveyFacts {
  const answers = (type: string) => {
    const row = rows.find((r) => r.survey_type === type);
    return row ? (parseJsonObject(row.responses) ?? {}) : null;
  };
  return {
    entryChoice: entryChoiceOf(study, answers('entry')?.[study.entry.key]),
    baseline: baselineOf(study, answers('baseline')),
    pre: answers('pre') !== null,
    post: answers('post') !== null,
  };
}

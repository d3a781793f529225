import type { Insertable, Kysely } from 'kysely';
import type { SurveyType } from '@studychat/contracts';
import type { DB, SurveyResponseRow, SurveyResponsesTable } from '../../db/schema.js';

export function findSurveyResponse(
  db: Kysely<DB>,
  userId: string,
  experimentId: string,
  surveyType: SurveyType,
): Promise<SurveyResponseRow | undefined> {
  return db
    .selectFrom('survey_responses')
    .selectAll()
    .where('user_id', '=', userId)
    .where('experiment_id', '=', experimentId)
    .where('survey_type', '=', surveyType)
    .executeTakeFirst();
}

/** Stores a response unless one of its type exists (the unique key decides); whether it was stored. */
export async function insertSurveyResponseOnce(
  db: Kysely<DB>,
  row: Insertable<SurveyResponsesTable> & { prolific_pid: string | null },
): Promise<boolean> {
  const result = await db
    .insertInto('survey_responses')
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'experiment_id', 'survey_type']).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

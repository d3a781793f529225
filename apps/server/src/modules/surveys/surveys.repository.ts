import type { CompiledQuery, Insertable, Kysely } from 'kysely';
import type { SurveyType } from '@studychat/contracts';
import { compiledOnce } from '../../db/compiled-once.js';
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

/**
 * The insert of a response unless one of its type exists (the unique key decides), returning its id (no row:
 * not inserted): to run with the step's event (StepContext.writeWithEvent). Built once per dialect.
 */
export function surveyResponseInsertOnce(
  db: Kysely<DB>,
  row: Insertable<SurveyResponsesTable> & { prolific_pid: string | null },
): CompiledQuery<{ id: string }> {
  return compiledOnce(
    db,
    'surveyResponseInsertOnce',
    (id, userId, experimentId, prolificPid, surveyType, responses, createdAt) =>
      db
        .insertInto('survey_responses')
        .values({
          id,
          user_id: userId,
          experiment_id: experimentId,
          prolific_pid: prolificPid,
          survey_type: surveyType,
          responses,
          created_at: createdAt,
        })
        .onConflict((oc) => oc.columns(['user_id', 'experiment_id', 'survey_type']).doNothing())
        .returning('id')
        .compile(),
    [row.id, row.user_id, row.experiment_id, row.prolific_pid, row.survey_type, row.responses, row.created_at],
  );
}

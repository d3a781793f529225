import { LIKERT_MAX, type SurveySubmission } from '@studychat/contracts';
import type { AppDeps } from '../../lib/deps.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { findExperimentById } from '../experiments/experiments.repository.js';
import { EXPERIMENT_NOT_FOUND } from '../experiments/experiments.service.js';
import { assertSelfOrAdmin, requireAssignment, type Requester } from '../participants/access.js';
import { baselineIntention, entryChoice } from './survey-answers.js';
import { findSurveyResponse, insertSurveyResponseOnce } from './surveys.repository.js';

/**
 * Stores a survey response once per participant, experiment and type: a repeat returns the first
 * id with `created: false` and changes nothing. Each type must follow the step before it in the
 * participant flow (spec section 4), so the stored data stays consistent.
 */
export async function submitSurvey(
  deps: AppDeps,
  requester: Requester,
  submission: SurveySubmission,
): Promise<{ id: string; created: boolean }> {
  const { db } = deps.database;
  const { user_id: userId, experiment_id: experimentId, survey_type: surveyType } = submission;
  assertSelfOrAdmin(requester, userId);
  if (!(await findExperimentById(db, experimentId))) throw notFound(EXPERIMENT_NOT_FOUND);
  const assignment = await requireAssignment(db, userId, experimentId);

  const existing = await findSurveyResponse(db, userId, experimentId, surveyType);
  if (existing) return { id: existing.id, created: false };

  switch (surveyType) {
    case 'entry':
      if (!assignment.consent_timestamp) throw conflict('Please give your consent before answering the questions.');
      break;
    case 'baseline':
      if ((await entryChoice(db, userId, experimentId)) !== 'questions') {
        throw conflict(
          'The intention question follows the choice about questions or concerns; please make that choice first.',
        );
      }
      break;
    case 'pre': {
      const intention = await baselineIntention(db, userId, experimentId);
      if (intention === null || intention >= LIKERT_MAX) {
        throw conflict('The pre-study survey needs an intention answer from 1 to 6 first.');
      }
      break;
    }
    case 'post':
      if (!assignment.assigned_condition) {
        throw new AppError(
          409,
          'NO_CONDITION',
          'The last survey is available once a study condition has been assigned.',
        );
      }
      break;
  }

  const id = deps.newId();
  const inserted = await insertSurveyResponseOnce(db, {
    id,
    user_id: userId,
    experiment_id: experimentId,
    prolific_pid: submission.prolific_pid?.trim() || assignment.prolific_pid,
    survey_type: surveyType,
    responses: JSON.stringify(submission.responses),
    created_at: deps.clock().toISOString(),
  });
  if (inserted) return { id, created: true };
  // A concurrent identical submission won the unique key; answer with its id.
  const winner = await findSurveyResponse(db, userId, experimentId, surveyType);
  if (!winner) throw conflict('The survey response could not be stored. Please try again.');
  return { id: winner.id, created: false };
}

import type { Kysely } from 'kysely';
import { LIKERT_MAX, type SurveySubmission } from '@studychat/contracts';
import type { AssignmentRow, DB } from '../../db/schema.js';
import type { AppDeps } from '../../lib/deps.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { findExperimentById } from '../experiments/experiments.repository.js';
import { EXPERIMENT_NOT_FOUND } from '../experiments/experiments.service.js';
import { assertSelfOrAdmin, requireAssignment, type Requester } from '../participants/access.js';
import { baselineIntention, entryChoice, hasSurvey } from './survey-answers.js';
import { findSurveyResponse, insertSurveyResponseOnce } from './surveys.repository.js';

/**
 * Refuses a survey that contradicts the participant's earlier answers, or comes before the step it
 * needs on the server (consent, an assigned condition). A missing entry or baseline response is
 * tolerated: the spec lets the flow continue when those writes fail (section 8), and the page repeats
 * the baseline before randomisation, so refusing would strand the participant at the pre-survey.
 */
async function assertFitsTheFlow(
  db: Kysely<DB>,
  userId: string,
  experimentId: string,
  submission: SurveySubmission,
  assignment: AssignmentRow,
): Promise<void> {
  switch (submission.survey_type) {
    case 'entry':
      if (!assignment.consent_timestamp) throw conflict('Please give your consent before answering the questions.');
      if (submission.responses.choice === 'confirm' && (await baselineIntention(db, userId, experimentId)) !== null) {
        throw conflict('The intention question has already been answered, so this choice cannot change.');
      }
      return;
    case 'baseline':
      if ((await entryChoice(db, userId, experimentId)) === 'confirm') {
        throw conflict('The intention question is only for participants who said they have questions or concerns.');
      }
      if (submission.responses.vaccination_intention === '7' && (await hasSurvey(db, userId, experimentId, 'pre'))) {
        throw conflict('The pre-study survey has already been submitted with a different intention.');
      }
      return;
    case 'pre': {
      if ((await entryChoice(db, userId, experimentId)) === 'confirm') {
        throw conflict('The pre-study survey is only for participants who said they have questions or concerns.');
      }
      const intention = await baselineIntention(db, userId, experimentId);
      if (intention !== null && intention >= LIKERT_MAX) {
        throw conflict('An intention of 7 completes the study; the pre-study survey is not needed.');
      }
      return;
    }
    case 'post':
      if (!assignment.assigned_condition) {
        throw new AppError(
          409,
          'NO_CONDITION',
          'The last survey is available once a study condition has been assigned.',
        );
      }
      return;
  }
}

/**
 * Stores a survey response once per participant, experiment and type: a repeat returns the first
 * id with `created: false` and changes nothing.
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

  await assertFitsTheFlow(db, userId, experimentId, submission, assignment);

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

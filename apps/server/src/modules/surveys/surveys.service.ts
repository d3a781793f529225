import type { Journey, StudyDefinition, SurveySubmission, SurveyType } from '@studychat/contracts';
import type { AppDeps } from '../../lib/deps.js';
import { conflict, notFound } from '../../lib/errors.js';
import {
  EXPERIMENT_NOT_FOUND,
  experimentOrParticipationMissing,
  findExperiment,
} from '../experiments/experiments.service.js';
import { parseJsonObject } from '../../db/values.js';
import { journeyWriteThenIf, type StepEvent } from '../journey/journey.service.js';
import { logAnswerChangeRefused } from '../journey/journey-log.js';
import type { JourneyWrite } from '../journey/journey-steps.js';
import type { Requester } from '../../lib/context.js';
import { assertSelf } from '../participants/access.js';
import { findSurveyResponse, insertSurveyResponseOnce } from './surveys.repository.js';
import { checkAnswers, checkPostAnswer } from './survey-questions.js';

/** The journey write each survey is. */
const SURVEY_WRITE: Record<SurveyType, JourneyWrite> = {
  entry: { kind: 'entry' },
  baseline: { kind: 'baseline' },
  pre: { kind: 'pre_survey' },
  post: { kind: 'post_survey' },
};

/** What each survey logs: the answers that route the journey (and the outcome), never the demographics. */
function surveyEvent(submission: SurveySubmission, study: StudyDefinition): StepEvent {
  switch (submission.survey_type) {
    case 'entry':
      return { type: 'entry', data: { choice: submission.responses[study.entry.key] } };
    case 'baseline':
      return { type: 'baseline', data: { intention: Number(submission.responses[study.baseline.key]) } };
    case 'pre':
      return { type: 'pre_survey' };
    case 'post':
      return { type: 'post_survey', data: { postIntent: submission.responses[study.post.key] } };
  }
}

/**
 * Stores a survey response once per participant, experiment and type, at its step of the journey
 * (entry, baseline, pre-survey, post-survey after the chat): a repeat returns the first id with
 * `created: false` and changes nothing; out of order is 409 STEP_OUT_OF_ORDER. The Prolific id stored
 * with it is the assignment's, never the one in the body; the user id must be the caller's (403 otherwise,
 * admins included: docs/decisions/0074-hardening.md).
 */
export async function submitSurvey(
  deps: AppDeps,
  requester: Requester,
  submission: SurveySubmission,
): Promise<{ id: string; created: boolean; journey?: Journey }> {
  const { user_id: userId, experiment_id: experimentId, survey_type: surveyType } = submission;
  assertSelf(requester, userId);
  // The answers must fit the questions of the experiment's study (post: its one 1-7 answer under the post key).
  const study = await deps.studies(experimentId);
  try {
    if (submission.survey_type === 'post') checkPostAnswer(study, submission.responses);
    else checkAnswers(study, submission.survey_type, submission.responses);
  } catch (refused) {
    // An unknown experiment (checked against the built-in study) is 404 before its answers are judged.
    if (!(await findExperiment(deps, experimentId))) throw notFound(EXPERIMENT_NOT_FOUND);
    throw refused;
  }

  const leadsOn = surveyType === 'entry' || surveyType === 'baseline';
  const { value, journey } = await journeyWriteThenIf<{ id: string; created: boolean }>(
    deps,
    {
      userId,
      experimentId,
      write: SURVEY_WRITE[surveyType],
      // Whether the experiment exists is read only when there is no assignment (no statement per survey).
      notJoined: experimentOrParticipationMissing(deps, experimentId),
    },
    {
      repeat: async (ctx) => {
        const first = await findSurveyResponse(ctx.trx, userId, experimentId, surveyType);
        if (!first) throw conflict('The survey response could not be found. Please try again.');
        // A different answer the second time is kept as an event; the first answer stays the answer.
        await logAnswerChangeRefused(ctx, {
          surveyType,
          first: parseJsonObject(first.responses) ?? {},
          attempted: submission.responses,
        });
        return { id: first.id, created: false };
      },
      apply: async ({ trx, state, now }) => {
        const id = deps.newId();
        const inserted = await insertSurveyResponseOnce(trx, {
          id,
          user_id: userId,
          experiment_id: experimentId,
          prolific_pid: state.facts.assignment.prolific_pid,
          survey_type: surveyType,
          responses: JSON.stringify(submission.responses),
          created_at: now.toISOString(),
        });
        // The participant's row is locked, so no other response of this type can have been stored meanwhile;
        // were one there, the thrown conflict rolls the write back.
        if (!inserted) throw conflict('The survey response could not be stored. Please try again.');
        return { result: { id, created: true }, event: surveyEvent(submission, study) };
      },
    },
    () => leadsOn,
  );
  return journey ? { ...value, journey } : value;
}

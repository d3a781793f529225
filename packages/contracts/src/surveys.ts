import { z } from 'zod';
import { defineRoute } from './route.js';
import { Journey } from './journey.js';
import { Id, Timestamp } from './common.js';
import { LineText } from './text.js';
import { LIKERT_MAX, LIKERT_MIN, SURVEY_TYPES } from './constants.js';

export const SurveyType = z.enum(SURVEY_TYPES);
export type SurveyType = z.infer<typeof SurveyType>;

/**
 * Answers keyed by the answer keys the experiment's study declares (entry, baseline, pre-study survey): each
 * value is one option's value or a 1-7 scale point as text. The server checks them against the study
 * (surveys/survey-questions.ts); the MMR study's answers keep their shape, e.g. `{ choice: 'questions' }`.
 */
const AnswerKey = LineText.regex(/^[a-z][a-z0-9_]{0,49}$/, 'answer keys are lower-case letters, digits or _');
export const StudyAnswers = z
  .record(AnswerKey, LineText.max(50))
  .refine((answers) => Object.keys(answers).length <= 30, 'at most 30 answers');
export type StudyAnswers = z.infer<typeof StudyAnswers>;
/**
 * The post-survey's one answer: the 1-7 intention as an integer under the study's post key (the MMR study's
 * `post_intent`); the server checks the key against the study (docs/decisions/0047).
 */
export const PostResponses = z
  .record(AnswerKey, z.number().int().min(LIKERT_MIN).max(LIKERT_MAX))
  .refine((answers) => Object.keys(answers).length === 1, 'exactly one answer');
export type PostResponses = z.infer<typeof PostResponses>;

const base = {
  user_id: Id,
  experiment_id: Id,
  /** Accepted for spec compatibility and ignored: the stored Prolific id is the assignment's. */
  prolific_pid: LineText.trim().max(64).optional().nullable(),
};
export const SurveySubmission = z.discriminatedUnion('survey_type', [
  z.object({ ...base, survey_type: z.literal('entry'), responses: StudyAnswers }),
  z.object({ ...base, survey_type: z.literal('baseline'), responses: StudyAnswers }),
  z.object({ ...base, survey_type: z.literal('pre'), responses: StudyAnswers }),
  z.object({ ...base, survey_type: z.literal('post'), responses: PostResponses }),
]);
export type SurveySubmission = z.infer<typeof SurveySubmission>;

export const SurveyReply = z.object({
  id: Id,
  /** False when an earlier response of this type existed; it was kept unchanged. */
  created: z.boolean(),
  /** After an entry or baseline answer, the journey it leads to (docs/decisions/0068). */
  journey: Journey.optional(),
});

export const SurveyResponse = z.object({
  id: Id,
  experiment_id: Id,
  survey_type: SurveyType,
  responses: z.record(z.string(), z.unknown()),
  created_at: Timestamp,
});
export type SurveyResponse = z.infer<typeof SurveyResponse>;

export const surveyRoutes = {
  submit: defineRoute({ method: 'POST', path: '/api/surveys', body: SurveySubmission, reply: SurveyReply }),
};

import { z } from 'zod';
import { defineRoute } from './route.js';
import { Id, Timestamp } from './common.js';
import { LineText } from './text.js';
import { AGE_GROUPS, LIKERT_MAX, LIKERT_MIN, POLITICAL_LEANINGS, SEXES, SURVEY_TYPES } from './constants.js';

export const SurveyType = z.enum(SURVEY_TYPES);
export type SurveyType = z.infer<typeof SurveyType>;

export const EntryResponses = z.object({ choice: z.enum(['confirm', 'questions']) }).strict();
export const BaselineResponses = z
  .object({
    vaccination_intention: z.enum(['1', '2', '3', '4', '5', '6', '7'], 'vaccination_intention must be "1" to "7"'),
  })
  .strict();
export const PreResponses = z
  .object({ age: z.enum(AGE_GROUPS), sex: z.enum(SEXES), political_leaning: z.enum(POLITICAL_LEANINGS) })
  .strict();
export const PostResponses = z.object({ post_intent: z.number().int().min(LIKERT_MIN).max(LIKERT_MAX) }).strict();

const base = {
  user_id: Id,
  experiment_id: Id,
  /** Accepted for spec compatibility and ignored: the stored Prolific id is the assignment's. */
  prolific_pid: LineText.trim().max(64).optional().nullable(),
};
export const SurveySubmission = z.discriminatedUnion('survey_type', [
  z.object({ ...base, survey_type: z.literal('entry'), responses: EntryResponses }),
  z.object({ ...base, survey_type: z.literal('baseline'), responses: BaselineResponses }),
  z.object({ ...base, survey_type: z.literal('pre'), responses: PreResponses }),
  z.object({ ...base, survey_type: z.literal('post'), responses: PostResponses }),
]);
export type SurveySubmission = z.infer<typeof SurveySubmission>;

export const SurveyReply = z.object({
  id: Id,
  /** False when an earlier response of this type existed; it was kept unchanged. */
  created: z.boolean(),
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

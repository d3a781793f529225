import { z } from 'zod';
import { defineRoute } from './route.js';
import { CompletionStatus } from './completion-status.js';
import { Journey } from './journey.js';
import { Condition, Id, Pathway, Timestamp } from './common.js';
import { PROLIFIC_ID_MAX, STRATA } from './constants.js';
import { LineText } from './text.js';

const ProlificId = LineText.trim().min(1, 'Prolific id is required').max(PROLIFIC_ID_MAX);
const OptionalPanelId = LineText.trim().min(1).max(PROLIFIC_ID_MAX).optional().nullable();

export const Stratum = z.enum(STRATA);
export type Stratum = z.infer<typeof Stratum>;

export const Assignment = z.object({
  id: Id,
  user_id: Id,
  experiment_id: Id,
  prolific_pid: z.string().nullable(),
  study_id: z.string().nullable(),
  session_id: z.string().nullable(),
  assigned_condition: Condition.nullable(),
  stratum: Stratum.nullable(),
  condition_assigned_at: Timestamp.nullable(),
  consent_given: z.boolean(),
  consent_timestamp: Timestamp.nullable(),
  created_at: Timestamp,
  intervention_completed_timestamp: Timestamp.nullable(),
  completion_pathway: Pathway.nullable(),
  completed_at: Timestamp.nullable(),
});
export type Assignment = z.infer<typeof Assignment>;

export const CreateAssignmentBody = z.object({
  user_id: Id,
  experiment_id: Id,
  prolific_pid: ProlificId,
  /** STUDY_ID from the Prolific landing URL, when present. */
  study_id: OptionalPanelId,
  /** SESSION_ID from the Prolific landing URL, when present. */
  session_id: OptionalPanelId,
});

export const AssignmentParams = z.object({ userId: Id, experimentId: Id });
export const ExperimentIdBody = z.object({ experimentId: Id });
export const ProlificIdBody = z.object({ experimentId: Id, prolificId: ProlificId });
export const CompletionBody = z.object({
  experimentId: Id,
  pathway: Pathway,
  /** Ignored by the server, which stores its own code for the pathway; accepted for spec compatibility. */
  completionCode: LineText.max(200).optional().nullable(),
});

export { CompletionStatus } from './completion-status.js';

/**
 * A write that moves the journey answers with the journey after it (docs/decisions/0068), so the next page's
 * guard need not read it again.
 */
export const AssignmentReply = Assignment.extend({
  journey: Journey.optional(),
  /** The experiment's study is written as a flow (issue 30): its pages are /flow/:experimentId, no journey here. */
  flow: z.boolean().optional(),
});

/** Whether an experiment takes new participants; `message` is what the landing page shows when it does not. */
export const Admission = z.object({
  admitting: z.boolean(),
  message: z.string().nullable(),
  /** Why not, when the experiment's state refuses (docs/decisions/0077): paused, or closed (draft, closed, archived). */
  reason: z.enum(['paused', 'closed']).optional(),
});
export type Admission = z.infer<typeof Admission>;
export type AssignmentReply = z.infer<typeof AssignmentReply>;

export const participantRoutes = {
  create: defineRoute({
    method: 'POST',
    path: '/api/participants',
    body: CreateAssignmentBody,
    reply: AssignmentReply,
    status: 201,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/participants/:userId/:experimentId',
    params: AssignmentParams,
    reply: Assignment,
  }),
  consent: defineRoute({
    method: 'POST',
    path: '/api/participants/consent',
    body: ExperimentIdBody,
    reply: AssignmentReply,
  }),
  prolificId: defineRoute({
    method: 'PUT',
    path: '/api/participants/prolific-id',
    body: ProlificIdBody,
    reply: Assignment,
  }),
  assignCondition: defineRoute({
    method: 'POST',
    path: '/api/participants/assign-condition',
    body: ExperimentIdBody,
    reply: AssignmentReply,
  }),
  completion: defineRoute({
    method: 'POST',
    path: '/api/participants/completion',
    body: CompletionBody,
    reply: CompletionStatus,
  }),
  status: defineRoute({
    method: 'GET',
    path: '/api/participants/status/:experimentId',
    params: z.object({ experimentId: Id }),
    reply: CompletionStatus,
  }),
  /** Public: whether the study's landing page may offer the login (docs/decisions/0073). */
  admission: defineRoute({
    method: 'GET',
    path: '/api/participants/admission/:experimentId',
    params: z.object({ experimentId: Id }),
    reply: Admission,
  }),
};

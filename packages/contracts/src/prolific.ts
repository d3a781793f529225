import { z } from 'zod';
import { defineRoute } from './route.js';
import { Id, IdParams, Timestamp } from './common.js';
import { LoginResult } from './auth.js';
import { LineText } from './text.js';
import { PROLIFIC_SUBMISSION_STATUSES } from './constants.js';

// The Prolific connection (issue 33, docs/decisions/0083-prolific-api.md): the API token and webhook secret
// (admins only, stored sealed, never sent back), a study linked to an experiment, and Prolific's webhooks.

/** Prolific's own ids (studies, submissions, participants): letters and digits. */
export const ProlificId = LineText.trim().regex(/^[A-Za-z0-9]{1,64}$/, 'must be a Prolific id (letters and digits)');

export const ProlificSubmissionStatus = z.enum(PROLIFIC_SUBMISSION_STATUSES);
export type ProlificSubmissionStatus = z.infer<typeof ProlificSubmissionStatus>;

export const ProlificConnection = z.object({
  tokenSet: z.boolean(),
  webhookSecretSet: z.boolean(),
  updatedAt: Timestamp.nullable(),
  /** The path Prolific's webhook subscription must call (on this server's public address). */
  webhookPath: z.string(),
});
export type ProlificConnection = z.infer<typeof ProlificConnection>;

const Secret = LineText.trim().min(8, 'is too short').max(500);
export const SaveProlificConnectionBody = z
  .object({ apiToken: Secret.optional(), webhookSecret: Secret.optional() })
  .refine((b) => b.apiToken !== undefined || b.webhookSecret !== undefined, 'Give an API token or a webhook secret');

export const ProlificTestReply = z.object({ ok: z.literal(true), accountId: z.string(), email: z.string().nullable() });
export type ProlificTestReply = z.infer<typeof ProlificTestReply>;

export const ProlificStudyLink = z.object({ experimentId: z.string(), studyId: z.string().nullable() });
export type ProlificStudyLink = z.infer<typeof ProlificStudyLink>;
export const ProlificStudyLinkBody = z.object({ studyId: ProlificId.nullable() });

/** Prolific's webhook body (submission.status.change and the study events); other fields are ignored. */
export const ProlificWebhookBody = z.object({
  resource_id: LineText.max(100),
  event_type: LineText.max(100),
  participant_id: LineText.max(100).nullish(),
  status: LineText.max(100).nullish(),
});
export const ProlificWebhookReply = z.object({
  ok: z.literal(true),
  /** matched: stored on a participant; unmatched: no participant; ignored: not a submission event; duplicate. */
  outcome: z.enum(['matched', 'unmatched', 'ignored', 'duplicate']),
});

/** Approve on Prolific every submission awaiting review of the participants on one pathway. */
export const ProlificApproveBody = z
  .object({ pathway: LineText.trim().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a pathway id') })
  .strict();
export const ProlificApproveReply = z.object({ approved: z.number().int(), submissionIds: z.array(z.string()) });
export type ProlificApproveReply = z.infer<typeof ProlificApproveReply>;

export const PROLIFIC_WEBHOOK_PATH = '/api/prolific/webhooks';

export const prolificRoutes = {
  connection: defineRoute({ method: 'GET', path: '/api/admin/prolific', reply: ProlificConnection }),
  save: defineRoute({
    method: 'PUT',
    path: '/api/admin/prolific',
    body: SaveProlificConnectionBody,
    reply: ProlificConnection,
  }),
  clear: defineRoute({ method: 'DELETE', path: '/api/admin/prolific', reply: ProlificConnection }),
  test: defineRoute({ method: 'POST', path: '/api/admin/prolific/test', reply: ProlificTestReply }),
  studyLink: defineRoute({
    method: 'GET',
    path: '/api/experiments/:id/prolific-study',
    params: IdParams,
    reply: ProlificStudyLink,
  }),
  setStudyLink: defineRoute({
    method: 'PUT',
    path: '/api/experiments/:id/prolific-study',
    params: IdParams,
    body: ProlificStudyLinkBody,
    reply: ProlificStudyLink,
  }),
  approve: defineRoute({
    method: 'POST',
    path: '/api/experiments/:id/prolific/approve',
    params: IdParams,
    body: ProlificApproveBody,
    reply: ProlificApproveReply,
  }),
  webhook: defineRoute({
    method: 'POST',
    path: '/api/prolific/webhooks',
    body: ProlificWebhookBody,
    reply: ProlificWebhookReply,
  }),
};

// Joining by the study link alone (docs/decisions/0086-prolific-link-join.md): an experiment setting beside the
// study logins; with it on, the landing's Prolific ids start or resume the participant's session.

export const ProlificLinkJoinSetting = z.object({ experimentId: z.string(), enabled: z.boolean() });
export type ProlificLinkJoinSetting = z.infer<typeof ProlificLinkJoinSetting>;
export const ProlificLinkJoinSettingBody = z.object({ enabled: z.boolean() }).strict();

export const ProlificLinkJoinBody = z
  .object({ experimentId: Id, prolificPid: ProlificId, studyId: ProlificId, sessionId: ProlificId })
  .strict();
export type ProlificLinkJoinBody = z.infer<typeof ProlificLinkJoinBody>;

export const ProlificLinkJoinReply = LoginResult.extend({
  experiment_id: Id,
  prolific_pid: z.string(),
  /** False for a first join, true when the same PID and SESSION_ID came back. */
  resumed: z.boolean(),
  /** A study written as a flow (issue 30) shows its own steps. */
  flow: z.boolean(),
});
export type ProlificLinkJoinReply = z.infer<typeof ProlificLinkJoinReply>;

export const prolificJoinRoutes = {
  setting: defineRoute({
    method: 'GET',
    path: '/api/experiments/:id/prolific-link-join',
    params: IdParams,
    reply: ProlificLinkJoinSetting,
  }),
  setSetting: defineRoute({
    method: 'PUT',
    path: '/api/experiments/:id/prolific-link-join',
    params: IdParams,
    body: ProlificLinkJoinSettingBody,
    reply: ProlificLinkJoinSetting,
  }),
  join: defineRoute({
    method: 'POST',
    path: '/api/prolific/join',
    body: ProlificLinkJoinBody,
    reply: ProlificLinkJoinReply,
  }),
};

import { z } from 'zod';
import { defineRoute } from './route.js';
import { CodeKey, Condition, Id, IdParams, Pathway, Timestamp } from './common.js';
import { FreeText, LineText } from './text.js';
import {
  COMPLETION_CODE_MAX,
  CREDENTIAL_BATCH_MAX,
  EXPERIMENT_DESCRIPTION_MAX,
  EXPERIMENT_NAME_MAX,
  EXPERIMENT_STATES,
  EXPORT_FILES,
  PARTICIPANT_STATUSES,
  PROLIFIC_ID_MAX,
  STUDY_LOGIN_STATUSES,
} from './constants.js';
import { FullParticipantSummary } from './monitor.js';
import { ChatLimitsReply, UpdateChatLimitsBody } from './chat-settings.js';

export const CompletionCodes = z.object({
  complete: z.string().nullable(),
  exitnoqualms: z.string().nullable(),
  exitceiling: z.string().nullable(),
});
export type CompletionCodes = z.infer<typeof CompletionCodes>;

export const Experiment = z.object({
  id: Id,
  name: z.string(),
  description: z.string().nullable(),
  completion_codes: CompletionCodes,
  /** The study version the experiment runs (issue 14); null only before the default is seeded. */
  study_version_id: Id.nullable(),
  /** draft, open, paused, closed or archived (docs/decisions/0077). */
  state: z.enum(EXPERIMENT_STATES),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Experiment = z.infer<typeof Experiment>;

/** The experiments list leaves archived experiments out unless `include_archived=true`. */
export const ListExperimentsQuery = z.object({ include_archived: z.enum(['true', 'false']).optional() });

/** A change of the experiment's state (the transitions allowed are EXPERIMENT_TRANSITIONS). */
export const SetExperimentStateBody = z.object({ state: z.enum(EXPERIMENT_STATES) });

/** What deleting a draft experiment removed. */
export const DeleteExperimentReply = z.object({ id: Id, study_logins: z.number().int() });
export type DeleteExperimentReply = z.infer<typeof DeleteExperimentReply>;

/** The most participants a quota may hold. */
export const QUOTA_MAX = 1_000_000;

/**
 * A quota (docs/decisions/0077): at most `max` real participants (previews not counted) assigned to the condition,
 * in one stratum, or in all of them together when `stratum` is null. A full quota stops assignment to its cell.
 */
export const Quota = z.object({
  condition: Condition,
  stratum: LineText.trim().min(1, 'stratum cannot be empty: use null for every stratum').max(100).nullable(),
  max: z
    .number({ error: 'max must be a number' })
    .int('max must be a whole number')
    .min(1, 'max must be at least 1')
    .max(QUOTA_MAX),
});
export type Quota = z.infer<typeof Quota>;

/** Replaces the experiment's quotas (an empty list: no quotas). */
export const UpdateQuotasBody = z.object({ quotas: z.array(Quota).max(200, 'At most 200 quotas') });

export const QuotasReply = z.object({
  /** Each quota with the real participants assigned to its cell so far. */
  quotas: z.array(Quota.extend({ filled: z.number().int() })),
  /** The conditions and strata of the pinned study a quota may name. */
  conditions: z.array(z.string()),
  strata: z.array(z.string()),
  /** Every cell (condition x stratum) is full: new joins are refused as closed. */
  full: z.boolean(),
});
export type QuotasReply = z.infer<typeof QuotasReply>;

/** A study login to revoke, by its email (the list shows it). */
export const RevokeLoginBody = z.object({ email: LineText.trim().min(1, 'email is required').max(320) });
export const RevokeLoginReply = z.object({ email: z.string(), sessions_ended: z.number().int() });
export type RevokeLoginReply = z.infer<typeof RevokeLoginReply>;

const Name = LineText.trim().min(1, 'Name is required').max(EXPERIMENT_NAME_MAX);
const Description = FreeText.trim().max(EXPERIMENT_DESCRIPTION_MAX);

export const CreateExperimentBody = z.object({
  name: Name,
  description: Description.optional().nullable(),
  /** The study version to run; the built-in study when left out. */
  study_version_id: Id.optional(),
});
export const UpdateExperimentBody = z
  .object({ name: Name.optional(), description: Description.optional().nullable() })
  .refine(
    (b) => b.name !== undefined || b.description !== undefined,
    'Nothing to update: send name and/or description',
  );

const Code = LineText.trim().min(1, 'Completion codes cannot be empty').max(COMPLETION_CODE_MAX);
export const UpdateCodesBody = z.object({
  codes: z.object({ complete: Code.optional(), exitnoqualms: Code.optional(), exitceiling: Code.optional() }).strict(),
});
export const CodesReply = z.object({ codes: CompletionCodes });

export const BatchCredentialsBody = z.object({
  count: z
    .number({ error: 'count must be a number' })
    .int('count must be a whole number')
    .min(1, 'count must be greater than 0')
    .max(CREDENTIAL_BATCH_MAX, `At most ${CREDENTIAL_BATCH_MAX} credentials can be generated at once`),
});
export const GeneratedCredential = z.object({ email: z.string(), password: z.string() });
export type GeneratedCredential = z.infer<typeof GeneratedCredential>;

/** One generated study login of an experiment, without its password (stored hashed, shown only once). */
export const StudyLogin = z.object({
  email: z.string(),
  /** The generation batch it came from. */
  batch_id: z.string(),
  created_at: Timestamp,
  last_login_at: Timestamp.nullable(),
  /** The Prolific id it is bound to, once it joined. */
  prolific_pid: z.string().nullable(),
  status: z.enum(STUDY_LOGIN_STATUSES),
});
export type StudyLogin = z.infer<typeof StudyLogin>;

export const StudyLoginsReply = z.object({
  total: z.number().int(),
  used: z.number().int(),
  unused: z.number().int(),
  /** Oldest batch first. */
  logins: z.array(StudyLogin),
});
export type StudyLoginsReply = z.infer<typeof StudyLoginsReply>;

export const CompletionCodeQuery = z.object({ pathway: Pathway });
export const CompletionCodeReply = z.object({ code: z.string(), pathway: Pathway, key: CodeKey });

/** Withdrawal: the Prolific id whose data is deleted from the experiment (the admin page confirms first). */
export const WithdrawBody = z.object({
  prolificId: LineText.trim().min(1, 'Prolific id is required').max(PROLIFIC_ID_MAX),
});
export const WithdrawReply = z.object({
  prolificId: z.string(),
  /** Rows deleted, by kind. */
  deleted: z.object({
    participants: z.number().int(),
    messages: z.number().int(),
    surveyResponses: z.number().int(),
    sectionRecords: z.number().int(),
    events: z.number().int(),
  }),
});
export type WithdrawReply = z.infer<typeof WithdrawReply>;

export const ParticipantSummary = z.object({
  total: z.number().int(),
  conditions: z.record(z.string(), z.number().int()),
});
export type ParticipantSummary = z.infer<typeof ParticipantSummary>;

export const DetailedParticipantRow = z.object({
  assignment_id: Id,
  user_id: Id,
  assigned_condition: Condition.nullable(),
  last_login_at: Timestamp.nullable(),
  chat_turns: z.number().int(),
  user_char_count: z.number().int(),
  /** Baseline intention (1-7) from the baseline survey. */
  pre_intent: z.number().int().nullable(),
  post_intent: z.number().int().nullable(),
  /** post_intent minus pre_intent; null when either is missing. */
  delta: z.number().int().nullable(),
  /** in_progress, screened_out, completed or stale (the monitor's rule, docs/decisions/0030). */
  status: z.enum(PARTICIPANT_STATUSES),
  /** A "preview as participant" run: shown marked, never counted in the summary or chart. */
  is_test: z.boolean(),
});
export type DetailedParticipantRow = z.infer<typeof DetailedParticipantRow>;

export const ExportParams = z.object({ id: Id, file: z.enum(EXPORT_FILES) });
/** Downloads leave test runs ("preview as participant") out unless `include_tests=true` (docs/decisions/0027). */
export const ExportQuery = z.object({ include_tests: z.enum(['true', 'false']).optional() });

export const experimentRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/experiments',
    query: ListExperimentsQuery,
    reply: z.array(Experiment),
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/experiments',
    body: CreateExperimentBody,
    reply: Experiment,
    status: 201,
  }),
  get: defineRoute({ method: 'GET', path: '/api/experiments/:id', params: IdParams, reply: Experiment }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/experiments/:id',
    params: IdParams,
    body: UpdateExperimentBody,
    reply: Experiment,
  }),
  /** Changes the experiment's state (admins; audited with from and to). */
  setState: defineRoute({
    method: 'PUT',
    path: '/api/experiments/:id/state',
    params: IdParams,
    body: SetExperimentStateBody,
    reply: Experiment,
  }),
  /** Deletes a draft experiment no participant joined, with its codes and study logins (admins; audited). */
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/experiments/:id',
    params: IdParams,
    reply: DeleteExperimentReply,
  }),
  updateCodes: defineRoute({
    method: 'PUT',
    path: '/api/experiments/:id/completion-codes',
    params: IdParams,
    body: UpdateCodesBody,
    reply: CodesReply,
  }),
  batchCredentials: defineRoute({
    method: 'POST',
    path: '/api/experiments/:id/batch-credentials',
    params: IdParams,
    body: BatchCredentialsBody,
    reply: z.array(GeneratedCredential),
    status: 201,
  }),
  /** The experiment's study logins, used and unused (admin). */
  logins: defineRoute({
    method: 'GET',
    path: '/api/experiments/:id/logins',
    params: IdParams,
    reply: StudyLoginsReply,
  }),
  /** The experiment's quotas per condition and stratum, with how full each is (staff). */
  quotas: defineRoute({ method: 'GET', path: '/api/experiments/:id/quotas', params: IdParams, reply: QuotasReply }),
  /** Replaces the experiment's quotas (admins; audited). */
  updateQuotas: defineRoute({
    method: 'PUT',
    path: '/api/experiments/:id/quotas',
    params: IdParams,
    body: UpdateQuotasBody,
    reply: QuotasReply,
  }),
  /** Revokes one study login: it cannot log in again and its sessions end at once (admins; audited). */
  revokeLogin: defineRoute({
    method: 'POST',
    path: '/api/experiments/:id/logins/revoke',
    params: IdParams,
    body: RevokeLoginBody,
    reply: RevokeLoginReply,
  }),
  completionCode: defineRoute({
    method: 'GET',
    path: '/api/experiments/:id/completion-code',
    params: IdParams,
    query: CompletionCodeQuery,
    reply: CompletionCodeReply,
  }),
  participantSummary: defineRoute({
    method: 'GET',
    path: '/api/experiments/:id/participant-summary',
    params: IdParams,
    reply: FullParticipantSummary,
  }),
  participantsDetailed: defineRoute({
    method: 'GET',
    path: '/api/experiments/:id/participants-detailed',
    params: IdParams,
    reply: z.array(DetailedParticipantRow),
  }),
  /** The experiment's chat limits and budget: defaults, its own values, what applies, what was spent. */
  chatLimits: defineRoute({
    method: 'GET',
    path: '/api/experiments/:id/chat-limits',
    params: IdParams,
    reply: ChatLimitsReply,
  }),
  updateChatLimits: defineRoute({
    method: 'PUT',
    path: '/api/experiments/:id/chat-limits',
    params: IdParams,
    body: UpdateChatLimitsBody,
    reply: ChatLimitsReply,
  }),
  /** CSV download: participants.csv, messages.csv, surveys.csv, codebook.csv. */
  exportFile: defineRoute({
    method: 'GET',
    path: '/api/experiments/:id/export/:file',
    params: ExportParams,
    query: ExportQuery,
  }),
  /** The spreadsheet-safe copy (.xlsx): a sheet per CSV file, formula-looking text prefixed with `'`. */
  /** The data package (.zip): every analysis file, codebook and datapackage.json, one snapshot. */
  exportPackage: defineRoute({
    method: 'GET',
    path: '/api/experiments/:id/export-package',
    params: IdParams,
    query: ExportQuery,
  }),
  /** Transcripts for sharing: chat messages with emails, phone numbers and names redacted, no ids. */
  exportTranscripts: defineRoute({
    method: 'GET',
    path: '/api/experiments/:id/export-transcripts',
    params: IdParams,
    query: ExportQuery,
  }),
  /** Withdrawal: deletes one participant's data by Prolific id (admins only; audited). */
  withdraw: defineRoute({
    method: 'POST',
    path: '/api/experiments/:id/withdrawals',
    params: IdParams,
    body: WithdrawBody,
    reply: WithdrawReply,
  }),
  exportSpreadsheet: defineRoute({
    method: 'GET',
    path: '/api/experiments/:id/export-spreadsheet',
    params: IdParams,
    query: ExportQuery,
  }),
};

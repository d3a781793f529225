import { z } from 'zod';
import { CODE_KEYS, CONDITION_ID_PATTERN, JOURNEY_STEPS, PATHWAYS } from './constants.js';
import { LineText } from './text.js';

/** Stable error codes; every error reply is `{ error, code }`. */
export const ErrorCode = z.enum([
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'PAYLOAD_TOO_LARGE',
  /** The request did not arrive in time (408). */
  'REQUEST_TIMEOUT',
  /** The request's headers, its URL included, are over the server's limit (431). */
  'HEADERS_TOO_LARGE',
  /** A part of the URL is over the server's limit (414). */
  'URI_TOO_LONG',
  'UNAUTHENTICATED',
  'INVALID_CREDENTIALS',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'RATE_LIMITED',
  'TOTP_REQUIRED',
  'TOTP_INVALID',
  'TOTP_ENROLMENT_REQUIRED',
  'SERVICE_BUSY',
  /** The server cannot reach its database for now (a restart, a failover): try again after Retry-After. */
  'DATABASE_UNAVAILABLE',
  'PATHWAY_NOT_EARNED',
  'CODE_NOT_CONFIGURED',
  'PROLIFIC_ID_MISMATCH',
  /** Another study login already takes part in this experiment with this Prolific id. */
  'PROLIFIC_ID_TAKEN',
  'LINK_JOIN_OFF',
  'STUDY_MISMATCH',
  'SESSION_MISMATCH',
  /** This Prolific id withdrew from the experiment (its data was deleted): it cannot take part again. */
  'PROLIFIC_ID_WITHDRAWN',
  /** A journey write that is not the participant's current step; the reply names the step. */
  'STEP_OUT_OF_ORDER',
  'FLOW_STUDY',
  'NOT_A_FLOW_STUDY',
  'ANSWERS_INVALID',
  'STEP_TOO_EARLY',
  /** A section finished before its minimum time on the server's clock; the reply gives the seconds left. */
  'SECTION_TOO_EARLY',
  'NO_CONDITION',
  'REPLY_IN_PROGRESS',
  'CHAT_CLOSED',
  /** What is left of the chat budget is reserved by replies in flight: send again once they are stored. */
  'BUDGET_BUSY',
  /** The experiment admits no new participants (its chat budget is nearly spent); those already in finish. */
  'NOT_ADMITTING',
  /** The experiment is paused: no new participants for now; those already in finish (docs/decisions/0077). */
  'EXPERIMENT_PAUSED',
  /** The experiment is a draft, closed or archived: no new participants. */
  'EXPERIMENT_CLOSED',
  /** A change of state the lifecycle does not allow from the current state. */
  'STATE_TRANSITION_INVALID',
  /** Only a draft experiment can be deleted. */
  'EXPERIMENT_NOT_DRAFT',
  /** A study version an experiment pins cannot be deleted. */
  'STUDY_VERSION_PINNED',
  /** Every place open to the participant's stratum is taken (the experiment's quotas). */
  'QUOTA_FULL',
  /** A follow-up wave's landing: the Prolific id did not finish the earlier wave. */
  'NOT_IN_EARLIER_WAVE',
  /** A follow-up wave's setting cannot change once real participants have joined. */
  'WAVE_LOCKED',
  /** A revoked study login: it can no longer log in. */
  'LOGIN_REVOKED',
  'MESSAGE_TOO_LONG',
  'MODEL_UNAVAILABLE',
  /** A study definition that does not pass the schema; the reply lists the problems (`issues`). */
  'STUDY_INVALID',
  /** A study version pinned by an experiment with participants: it cannot change (clone it to edit). */
  'STUDY_VERSION_IN_USE',
  /** The experiment already has participants: its study version cannot be changed. */
  'EXPERIMENT_HAS_PARTICIPANTS',
  /** A "preview as participant" link that is unknown, expired or already used. */
  'PREVIEW_LINK_INVALID',
  /** The change would leave no admin: the last admin cannot be removed or made an analyst. */
  'LAST_ADMIN',
  /** No Prolific API token is set (admin Security page): nothing calls Prolific. */
  'PROLIFIC_NOT_CONFIGURED',
  /** Prolific refused the API token (its 401). */
  'PROLIFIC_TOKEN_REJECTED',
  /** Prolific knows no such study or submission (its 404). */
  'PROLIFIC_NOT_FOUND',
  /** Prolific did not answer in time, or kept answering 429 or 5xx. */
  'PROLIFIC_UNAVAILABLE',
  /** The experiment is not linked to a Prolific study (its Prolific study card). */
  'PROLIFIC_STUDY_NOT_LINKED',
  /** A participant whose submission is not known or not awaiting review: it cannot be rejected. */
  'PROLIFIC_NOT_REVIEWABLE',
  /** Bonus lines that cannot be paid (unknown Prolific id, bad amount, duplicate): listed in `issues`. */
  'BONUS_LINES_INVALID',
  /** Some Prolific ids already have a bonus in another batch: paying needs `confirmRepeats`. */
  'BONUS_REPEAT_UNCONFIRMED',
  /** The last pay call's outcome is unknown (Prolific failed or did not answer): paying again needs `confirmNotPaid`. */
  'BONUS_PAY_UNCERTAIN',
  /** A webhook without a valid X-Prolific-Request-Signature. */
  'WEBHOOK_SIGNATURE_INVALID',
  'INTERNAL',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const JourneyStep = z.enum(JOURNEY_STEPS);
export type JourneyStep = z.infer<typeof JourneyStep>;

/**
 * Every error reply: `{ error, code }`, plus `step` on STEP_OUT_OF_ORDER (where the participant is) and
 * `remainingSeconds` on SECTION_TOO_EARLY.
 */
export const ErrorReply = z.object({
  error: z.string(),
  code: ErrorCode,
  step: JourneyStep.optional(),
  /** On STEP_OUT_OF_ORDER in a flow (issue 30): the id of the step the participant is at. */
  flowStep: z.string().optional(),
  remainingSeconds: z.number().int().optional(),
  /** On STUDY_INVALID: every problem of the definition, with its path. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorReply = z.infer<typeof ErrorReply>;

export const Id = z.uuid();
/** ISO-8601 UTC timestamp string. */
export const Timestamp = z.string();

/** A condition id; which ids exist is the study version's (docs/decisions/0061). */
export const Condition = LineText.regex(CONDITION_ID_PATTERN, 'must be a condition id');
export const Pathway = z.enum(PATHWAYS);
export const CodeKey = z.enum(CODE_KEYS);
export type Condition = z.infer<typeof Condition>;
export type Pathway = z.infer<typeof Pathway>;
export type CodeKey = z.infer<typeof CodeKey>;

export const Ok = z.object({ ok: z.literal(true) });

export const IdParams = z.object({ id: Id });

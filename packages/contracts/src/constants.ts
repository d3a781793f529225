// Plain constants with no zod at run time, so the participant bundle can import them cheaply.

/**
 * The built-in MMR study's condition ids. Other studies declare their own (`conditionList` in the study
 * definition, docs/decisions/0061): nothing else may enumerate conditions from this list.
 */
export const CONDITIONS = ['mmr', 'control'] as const;

/** A condition id: 1-20 lower-case letters, digits or _, starting with a letter (the columns hold 20). */
export const CONDITION_ID_PATTERN = /^[a-z][a-z0-9_]{0,19}$/;

/** A study declares 2 to this many conditions. */
export const MAX_CONDITIONS = 6;

export const PATHWAYS = ['complete', 'confirm', 'ceiling'] as const;

export const CODE_KEYS = ['complete', 'exitnoqualms', 'exitceiling'] as const;

/** Pathway to completion-code key (spec section 4). */
export const PATHWAY_CODE_KEY: Record<(typeof PATHWAYS)[number], (typeof CODE_KEYS)[number]> = {
  complete: 'complete',
  confirm: 'exitnoqualms',
  ceiling: 'exitceiling',
};

/**
 * The journey API's names of the two entry choices (spec section 4), whatever values a study stores for them
 * (docs/decisions/0033): going on to the study, or leaving with no concerns.
 */
export const ENTRY_CHOICE_NAMES = { continue: 'questions', exit: 'confirm' } as const;

export const SURVEY_TYPES = ['entry', 'baseline', 'pre', 'post'] as const;

/**
 * The participant's journey, in order (the server owns it; docs/decisions/0009). After the entry choice
 * the journey forks: 'confirm_exit' (no concerns) or 'baseline'; after the baseline, 'ceiling_exit' (7) or
 * 'pre_survey'. The exits and 'completion' wait for completion to be recorded; 'completed' is terminal.
 */
export const JOURNEY_STEPS = [
  'consent',
  'entry',
  'confirm_exit',
  'baseline',
  'ceiling_exit',
  'pre_survey',
  'assignment',
  'sections',
  'chat',
  'post_survey',
  'completion',
  'completed',
] as const;
export type JourneyStepName = (typeof JOURNEY_STEPS)[number];

/** The step at which completion with each pathway is recorded. */
export const PATHWAY_STEP: Record<(typeof PATHWAYS)[number], JourneyStepName> = {
  complete: 'completion',
  confirm: 'confirm_exit',
  ceiling: 'ceiling_exit',
};

/** Types of the rows of the journey event log (one per step reached, or attempted out of order). */
export const JOURNEY_EVENT_TYPES = [
  'joined',
  'consented',
  'entry',
  'baseline',
  'pre_survey',
  'assigned',
  'section_opened',
  'section_finished',
  'section_too_early',
  'chat_started',
  'chat_complete',
  'post_survey',
  'completed',
  'out_of_order',
  /** A repeat survey submission with different answers: the first answers stay, the attempt is logged. */
  'answer_change_refused',
  /** The chat box blocked a paste (or drop); the data holds the pasted length only, never the text. */
  'paste_blocked',
  /** A flow's step done (issue 30): a page's button, a questions page's answers, an AI text confirmed. */
  'step_done',
  /** A flow's AI text generated for the participant (its model, tokens and cost in the step's record). */
  'ai_text_generated',
] as const;
/** Longest paste length recorded; the browser reports a longer paste as this. */
export const PASTE_LENGTH_MAX = 1_000_000;
/** Blocked pastes logged per participant and experiment (later ones are not logged: docs/decisions/0028). */
export const MAX_LOGGED_PASTES = 50;
export type JourneyEventType = (typeof JOURNEY_EVENT_TYPES)[number];

/**
 * A participant's status on the monitor and in participants.csv (docs/decisions/0030): completed (completion
 * recorded), screened_out (at the no-concerns or ceiling exit, completion not recorded yet), stale (in progress
 * without activity for the experiment's stale minutes), in_progress (everyone else).
 */
export const PARTICIPANT_STATUSES = ['in_progress', 'screened_out', 'completed', 'stale'] as const;
export type ParticipantStatusName = (typeof PARTICIPANT_STATUSES)[number];
/** Stale after this many minutes without activity unless the experiment sets its own. */
export const MONITOR_STALE_MINUTES_DEFAULT = 30;
export const MONITOR_STALE_MINUTES_MAX = 10_080;
export const TARGET_SAMPLE_SIZE_MAX = 1_000_000;
/** The monitor's funnel, in order: how many got past each point. */
export const MONITOR_FUNNEL_STEPS = [
  'logged_in',
  'joined',
  'consented',
  'entry',
  'baseline',
  'pre_survey',
  'assigned',
  'sections',
  'chat',
  'post_survey',
  'completed',
] as const;
export type MonitorFunnelStep = (typeof MONITOR_FUNNEL_STEPS)[number];

export const AGE_GROUPS = ['18-24', '25-34', '35-44', '45-54', '55-64', '65+'] as const;
export const SEXES = ['female', 'male', 'other', 'prefer-not'] as const;
export const POLITICAL_LEANINGS = ['liberal', 'moderate', 'conservative', 'prefer-not'] as const;
export const LIKERT_MIN = 1;
export const LIKERT_MAX = 7;
/** Midpoint of the scale: the floor of the average (spec section 9). */
export const LIKERT_MID = Math.floor((LIKERT_MIN + LIKERT_MAX) / 2);

/** Baseline-intention strata for balanced randomisation (1-2, 3-4, 5-6). */
export const STRATA = ['1-2', '3-4', '5-6'] as const;

/**
 * Longest message the API accepts at all, in characters. Each experiment sets its own, lower limit
 * (default 1,000, see ChatLimits); this bound only keeps absurd bodies out before the service checks it.
 */
export const CHAT_MESSAGE_MAX_LENGTH = 10_000;
export const CHAT_POINTS_TARGET = 100;
export const CHAT_ROUNDS_TARGET = 3;

export const EXPERIMENT_NAME_MAX = 200;
export const EXPERIMENT_DESCRIPTION_MAX = 5000;
export const COMPLETION_CODE_MAX = 100;
/** Upper bound on one batch of generated study logins. */
export const CREDENTIAL_BATCH_MAX = 500;
export const CREDENTIAL_COUNT_DEFAULT = 10;
/**
 * Where a generated study login stands for its experiment: never used; logged in but not joined; joined
 * (has an assignment); completed (a completion was recorded). Anything but `unused` counts as used.
 */
export const STUDY_LOGIN_STATUSES = ['unused', 'logged_in', 'joined', 'completed', 'revoked'] as const;
export type StudyLoginStatus = (typeof STUDY_LOGIN_STATUSES)[number];
export const PROLIFIC_ID_MAX = 64;

export const EXPORT_FILES = ['participants.csv', 'messages.csv', 'surveys.csv', 'codebook.csv'] as const;
export type ExportFile = (typeof EXPORT_FILES)[number];

export const USER_SORT_FIELDS = ['id', 'email', 'created_at', 'last_login_at', 'is_admin'] as const;

export const PROLIFIC_COMPLETION_URL = 'https://app.prolific.com/submissions/complete';

/** The periods the monitor's provider-health table shows, in minutes back from now (docs/decisions/0076). */
export const PROVIDER_HEALTH_PERIODS = [15, 60, 1440] as const;

/**
 * An experiment's lifecycle (issue 34, docs/decisions/0077): draft (set up, no joins), open (joins), paused (no new
 * joins; those in finish), closed (no new joins; those in finish), archived (hidden from lists, data kept, no joins).
 */
export const EXPERIMENT_STATES = ['draft', 'open', 'paused', 'closed', 'archived'] as const;
export type ExperimentState = (typeof EXPERIMENT_STATES)[number];

/** A stored state as the contract's; anything unknown reads as closed (nobody new joins). */
export function toExperimentState(value: string | null | undefined): ExperimentState {
  return (EXPERIMENT_STATES as readonly string[]).includes(value ?? '') ? (value as ExperimentState) : 'closed';
}

/**
 * The changes an admin may make, from each state. Open goes back to draft only while no one has joined (the
 * server checks); archived is reached only from closed or draft, and leaves only to closed.
 */
export const EXPERIMENT_TRANSITIONS: Readonly<Record<ExperimentState, readonly ExperimentState[]>> = {
  draft: ['open', 'archived'],
  open: ['paused', 'closed', 'draft'],
  paused: ['open', 'closed'],
  closed: ['open', 'archived'],
  archived: ['closed'],
};

/** What someone who tries to join a paused experiment reads (403 EXPERIMENT_PAUSED, and the landing page). */
export const EXPERIMENT_PAUSED_TEXT =
  'This study is paused and is not taking new participants right now. Please try again later, or return your submission on Prolific. Thank you for your interest.';

/** What someone who tries to join a draft, closed or archived experiment reads (403 EXPERIMENT_CLOSED). */
export const EXPERIMENT_CLOSED_TEXT =
  'This study is closed and is not taking new participants, so you cannot start it. Please return your submission on Prolific. Thank you for your interest.';

/** What a revoked study login reads when it logs in (403 LOGIN_REVOKED). */
export const LOGIN_REVOKED_TEXT =
  'This study login has been withdrawn by the research team and can no longer be used. If you were taking part, please contact the research team through Prolific.';

/** What a Prolific id that did not finish the earlier wave reads at a follow-up wave's landing (403 NOT_IN_EARLIER_WAVE). */
export const NOT_IN_EARLIER_WAVE_TEXT =
  'This follow-up study is only for people who took part in its first part, and your Prolific ID is not among them, so you cannot start it. Please return your submission on Prolific. Thank you for your interest.';

/** What a participant reads when every place open to them is taken at the assignment (409 QUOTA_FULL). */
export const QUOTA_FULL_TEXT =
  'Sorry, all places in this study have now been filled, so you cannot continue. Please return your submission on Prolific. Thank you for your time.';
/** A participant's submission status on Prolific as the monitor shows it; anything else Prolific sends is `other`. */
export const PROLIFIC_SUBMISSION_STATUSES = [
  'active',
  'returned',
  'timed_out',
  'awaiting_review',
  'approved',
  'rejected',
  'other',
] as const;

/**
 * Prolific's rejection categories (`rejection_category` of a REJECT transition, docs/decisions/0089) with the
 * words the researcher reads.
 */
export const PROLIFIC_REJECTION_CATEGORIES = [
  'TOO_QUICKLY',
  'TOO_SLOWLY',
  'FAILED_INSTRUCTIONS',
  'INCOMP_LONGITUDINAL',
  'FAILED_CHECK',
  'LOW_EFFORT',
  'MALINGERING',
  'NO_CODE',
  'BAD_CODE',
  'NO_DATA',
  'UNSUPP_DEVICE',
  'OTHER',
] as const;
export type ProlificRejectionCategory = (typeof PROLIFIC_REJECTION_CATEGORIES)[number];
export const PROLIFIC_REJECTION_LABELS: Record<ProlificRejectionCategory, string> = {
  TOO_QUICKLY: 'Completed too quickly',
  TOO_SLOWLY: 'Completed too slowly',
  FAILED_INSTRUCTIONS: 'Did not follow the instructions',
  INCOMP_LONGITUDINAL: 'Did not complete a longitudinal study',
  FAILED_CHECK: 'Failed an attention check',
  LOW_EFFORT: 'Low effort',
  MALINGERING: 'Malingering (answers not truthful)',
  NO_CODE: 'No completion code entered',
  BAD_CODE: 'Wrong completion code',
  NO_DATA: 'No data received',
  UNSUPP_DEVICE: 'Used an unsupported device',
  OTHER: 'Other',
};
/** Prolific refuses a rejection whose message to the participant is shorter. */
export const PROLIFIC_REJECT_MESSAGE_MIN = 100;
export const PROLIFIC_REJECT_MESSAGE_MAX = 2000;
/** A bonus batch's state in our ledger (docs/decisions/0089). */
export const PROLIFIC_BONUS_STATUSES = ['prepared', 'setting_up', 'set_up', 'paying', 'paid', 'failed'] as const;
/** The largest bonus one line may carry, in minor units (£100.00), and the most lines in one batch. */
export const PROLIFIC_BONUS_MAX_CENTS = 10_000;
export const PROLIFIC_BONUS_MAX_LINES = 2_000;

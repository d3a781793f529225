import type {
  ProlificSubmissionStatus,
  ChatLimitReason,
  MonitorParticipant,
  JourneyStepName,
} from '@studychat/contracts/web';
import { categoryOf, type MonitorCategory } from '../participant-status';

// Pure helpers of the monitor page: filtering the participants list and the words it shows.

export type StatusFilter = MonitorCategory | 'all';

/** Participants whose Prolific id or login contains the search text (any case), in the category chosen. */
export function filterParticipants(
  rows: readonly MonitorParticipant[],
  search: string,
  status: StatusFilter,
): MonitorParticipant[] {
  const needle = search.trim().toLowerCase();
  return rows.filter(
    (row) =>
      (status === 'all' || categoryOf(row) === status) &&
      (needle === '' ||
        row.login.toLowerCase().includes(needle) ||
        (row.prolific_pid ?? '').toLowerCase().includes(needle)),
  );
}

export const STEP_LABEL: Record<JourneyStepName, string> = {
  consent: 'Consent',
  entry: 'Entry question',
  confirm_exit: 'No-concerns exit',
  baseline: 'Baseline',
  ceiling_exit: 'Ceiling exit',
  pre_survey: 'Pre-survey',
  assignment: 'Assignment',
  sections: 'Sections',
  chat: 'Chat',
  post_survey: 'Post-survey',
  completion: 'Completion code',
  completed: 'Completed',
};

/** The limit that ended a participant's chat, in the monitor's words (docs/decisions/0073). */
export const CHAT_CLOSED_LABEL: Record<ChatLimitReason, string> = {
  message_limit: 'Message limit',
  token_limit: 'Token limit',
  budget: 'Budget',
};

/** The submission status Prolific reported (docs/decisions/0083-prolific-api.md), as the monitor shows it. */
export const PROLIFIC_STATUS_LABEL: Record<ProlificSubmissionStatus, string> = {
  active: 'Active',
  returned: 'Returned',
  timed_out: 'Timed out',
  awaiting_review: 'Awaiting review',
  approved: 'Approved',
  rejected: 'Rejected',
  other: 'Other',
};

export function stepText(row: Pick<MonitorParticipant, 'step' | 'section'>): string {
  const label = STEP_LABEL[row.step];
  return row.step === 'sections' && row.section !== null ? `${label} (${row.section + 1})` : label;
}

/** 75 -> "1 min 15 s", 3700 -> "1 h 1 min". */
export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${minutes % 60} min`;
}

export function usd(value: number | null): string {
  if (value === null) return '-';
  return `$${value.toFixed(value >= 100 ? 0 : value >= 1 ? 2 : 4)}`;
}

export const FUNNEL_LABEL: Record<string, string> = {
  logged_in: 'Logged in',
  joined: 'Joined',
  consented: 'Consented',
  entry: 'Entry question',
  baseline: 'Baseline',
  pre_survey: 'Pre-survey',
  assigned: 'Assigned',
  sections: 'Sections read',
  chat: 'Chat done',
  post_survey: 'Post-survey',
  completed: 'Completed (full study)',
};

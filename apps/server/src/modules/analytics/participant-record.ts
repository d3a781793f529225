import {
  CONDITIONS,
  LIKERT_MAX,
  LIKERT_MIN,
  chatPoints,
  isChatComplete,
  studyDefinition,
  type Condition,
  type DetailedParticipantRow,
  type ParticipantStatusName,
} from '@studychat/contracts';
import { toBool, toIso, toIsoOrNull } from '../../db/values.js';
import type { ParticipantBaseRow } from './analytics.repository.js';
import type { AssistantUsage, ChatActivity, SectionExposure, SurveyAnswers } from './participant-facts.js';

/** The most static sections any condition has: participants.csv has one pair of columns per section. */
export const SECTION_COUNT = Math.max(...Object.values(studyDefinition.conditions).map((c) => c.sections.length));

/** One participant, as the participants table and participants.csv describe them. */
export interface ParticipantRecord {
  experimentId: string;
  userId: string;
  email: string;
  assignmentId: string;
  prolificPid: string | null;
  studyId: string | null;
  sessionId: string | null;
  condition: Condition | null;
  stratum: string | null;
  conditionAssignedAt: string | null;
  assignmentCreatedAt: string;
  lastLoginAt: string | null;
  consentGiven: boolean;
  consentTimestamp: string | null;
  entryChoice: string | null;
  baselineIntention: number | null;
  age: string | null;
  sex: string | null;
  politicalLeaning: string | null;
  /** By section index (0-based); undefined where the section was never completed. */
  sections: (SectionExposure | undefined)[];
  chatTurns: number;
  userCharCount: number;
  chatPoints: number;
  chatComplete: boolean;
  assistantMessages: number;
  assistantInputTokens: number | null;
  assistantOutputTokens: number | null;
  assistantCostUsd: number | null;
  postIntent: number | null;
  delta: number | null;
  interventionCompletedAt: string | null;
  completionPathway: string | null;
  completionCode: string | null;
  completedAt: string | null;
  /** The monitor's status (docs/decisions/0030); null where it was not computed. */
  status: ParticipantStatusName | null;
}

export interface ParticipantFacts {
  surveys: Map<string, SurveyAnswers>;
  chat: Map<string, ChatActivity>;
  usage?: Map<string, AssistantUsage>;
  exposures?: Map<string, Map<number, SectionExposure>>;
  statuses?: Map<string, ParticipantStatusName>;
}

/** A 1-7 intention answer (the baseline stores "1".."7", the post-survey an integer), else null. */
export function intentValue(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= LIKERT_MIN && n <= LIKERT_MAX ? n : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function toCondition(value: string | null): Condition | null {
  return CONDITIONS.find((c) => c === value) ?? null;
}

export function toParticipantRecord(
  experimentId: string,
  base: ParticipantBaseRow,
  facts: ParticipantFacts,
): ParticipantRecord {
  const answers = facts.surveys.get(base.user_id) ?? {};
  const chat = facts.chat.get(base.user_id) ?? { turns: 0, chars: 0 };
  const usage = facts.usage?.get(base.user_id);
  const exposures = facts.exposures?.get(base.user_id);
  const baseline = intentValue(answers.baseline?.vaccination_intention);
  const post = intentValue(answers.post?.post_intent);
  const points = chatPoints(chat.turns, chat.chars);
  return {
    experimentId,
    userId: base.user_id,
    email: base.email,
    assignmentId: base.assignment_id,
    prolificPid: base.prolific_pid,
    studyId: base.study_id,
    sessionId: base.session_id,
    condition: toCondition(base.assigned_condition),
    stratum: base.stratum,
    conditionAssignedAt: toIsoOrNull(base.condition_assigned_at),
    assignmentCreatedAt: toIso(base.created_at),
    lastLoginAt: toIsoOrNull(base.last_login_at),
    consentGiven: toBool(base.consent_given),
    consentTimestamp: toIsoOrNull(base.consent_timestamp),
    entryChoice: text(answers.entry?.choice),
    baselineIntention: baseline,
    age: text(answers.pre?.age),
    sex: text(answers.pre?.sex),
    politicalLeaning: text(answers.pre?.political_leaning),
    sections: Array.from({ length: SECTION_COUNT }, (_, index) => exposures?.get(index)),
    chatTurns: chat.turns,
    userCharCount: chat.chars,
    chatPoints: points,
    chatComplete: isChatComplete(points, chat.turns),
    assistantMessages: usage?.messages ?? 0,
    assistantInputTokens: usage ? usage.inputTokens : 0,
    assistantOutputTokens: usage ? usage.outputTokens : 0,
    assistantCostUsd: usage ? usage.costUsd : 0,
    postIntent: post,
    delta: baseline !== null && post !== null ? post - baseline : null,
    interventionCompletedAt: toIsoOrNull(base.intervention_completed_timestamp),
    completionPathway: base.completion_pathway,
    completionCode: base.completion_code,
    completedAt: toIsoOrNull(base.completed_at),
    status: facts.statuses?.get(base.user_id) ?? null,
  };
}

export function toDetailedRow(
  record: ParticipantRecord,
  status: DetailedParticipantRow['status'],
): DetailedParticipantRow {
  return {
    assignment_id: record.assignmentId,
    user_id: record.userId,
    assigned_condition: record.condition,
    last_login_at: record.lastLoginAt,
    chat_turns: record.chatTurns,
    user_char_count: record.userCharCount,
    pre_intent: record.baselineIntention,
    post_intent: record.postIntent,
    delta: record.delta,
    status,
  };
}

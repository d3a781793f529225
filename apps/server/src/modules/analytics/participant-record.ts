import {
  conditionIds,
  ENTRY_CHOICE_NAMES,
  LIKERT_MAX,
  LIKERT_MIN,
  chatPoints,
  chatRuleFor,
  isChatComplete,
  studyDefinition,
  type ChatLimitReason,
  type Condition,
  type DetailedParticipantRow,
  type ParticipantStatusName,
  type StudyDefinition,
} from '@studychat/contracts';
import { toBool, toIso, toIsoOrNull } from '../../db/values.js';
import { blockSize } from '../participants/permuted-block.js';
import type { ParticipantBaseRow } from './analytics.repository.js';
import { entryChoiceOf } from '../journey/survey-answers.js';
import type { AssistantUsage, ChatActivity, SectionExposure, SurveyAnswers } from './participant-facts.js';

/** The most static sections any condition of a study has: participants.csv has one pair of columns per section. */
export function sectionCountOf(study: StudyDefinition): number {
  return Math.max(...Object.values(study.conditions).map((c) => c.sections.length));
}

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
  /** The entry answer by the spec's names of its two roles ('questions', 'confirm'), whatever values the study stores. */
  entryChoice: string | null;
  baselineIntention: number | null;
  /** The pre-study answers under the study version's question keys (docs/decisions/0047). */
  pre: Record<string, string | null>;
  /** By section index (0-based); undefined where the section was never completed. */
  sections: (SectionExposure | undefined)[];
  /** The chat measures are null for a participant who never reached the chat (no thread). */
  chatTurns: number | null;
  userCharCount: number | null;
  chatPoints: number | null;
  chatComplete: boolean | null;
  /** The limit that ended the chat (messages, tokens, the budget); null if none did or the chat was never reached. */
  chatClosedBy: ChatLimitReason | null;
  assistantMessages: number | null;
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
  /** The pathway the answers put the participant on (finished or not); null before it is known. */
  pathway: string | null;
  randomisationBlock: number | null;
  /** Position within the permuted block, from 1. */
  randomisationPosition: number | null;
  /** Every section of the condition finished at its minimum by the server's clock; null without a condition. */
  allSectionsMinMet: boolean | null;
  /** Another participant of the experiment carries the same Prolific id; null without an id. */
  duplicateProlificPid: boolean | null;
  /** Hidden seconds over visible plus hidden seconds, over the finished server-timed sections; null if none. */
  hiddenTimeShare: number | null;
  /** Blocked pastes in the chat box; null if the chat was never reached. */
  pasteAttempts: number | null;
  /** A run of "preview as participant" (only exported when test runs are asked for). */
  isTest: boolean;
  /** The study version the participant ran under; null: before study versions (the built-in study). */
  studyVersionId: string | null;
}

export interface ParticipantFacts {
  surveys: Map<string, SurveyAnswers>;
  chat: Map<string, ChatActivity>;
  /** Participants who have a chat thread (reached the chat), with the limit that ended it (null: none did). */
  threads: ReadonlyMap<string, ChatLimitReason | null>;
  usage?: Map<string, AssistantUsage>;
  exposures?: Map<string, Map<number, SectionExposure>>;
  statuses?: Map<string, ParticipantStatusName>;
  /** Prolific ids more than one participant carries. */
  duplicatePids?: ReadonlySet<string>;
  /** Blocked pastes in the chat box by user (absent: none). */
  pastes?: Map<string, number>;
  /** The study version the experiment pins (its sections and answer keys); the built-in study if not given. */
  study?: StudyDefinition;
  /**
   * Study versions by id: a participant stamped with another version than the pinned one (a test run from
   * before the pin changed) has their answers read under that version's keys (docs/decisions/0047).
   */
  versions?: ReadonlyMap<string, StudyDefinition>;
}

/** A 1-7 intention answer (the baseline stores "1".."7", the post-survey an integer), else null. */
export function intentValue(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= LIKERT_MIN && n <= LIKERT_MAX ? n : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** The pathway the answers put a participant on: the recorded one, else what the entry and baseline imply. */
function pathwayOf(recorded: string | null, entry: string | null, baseline: number | null): string | null {
  if (recorded !== null) return recorded;
  if (entry === 'confirm') return 'confirm';
  if (baseline === LIKERT_MAX) return 'ceiling';
  return baseline !== null ? 'complete' : null;
}

function sectionSummary(
  study: StudyDefinition,
  condition: Condition | null,
  sections: (SectionExposure | undefined)[],
) {
  let visible = 0;
  let hidden = 0;
  let timed = false;
  for (const s of sections) {
    if (s?.visibleSeconds == null || s.hiddenSeconds == null) continue;
    timed = true;
    visible += s.visibleSeconds;
    hidden += s.hiddenSeconds;
  }
  const count = condition ? (study.conditions[condition]?.sections.length ?? 0) : 0;
  return {
    allMet: condition
      ? Array.from({ length: count }, (_, i) => sections[i]).every((s) => s !== undefined && s.seconds >= s.minSeconds)
      : null,
    hiddenShare: timed && visible + hidden > 0 ? Math.round((hidden / (visible + hidden)) * 10000) / 10000 : null,
  };
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
  // The answers are read under the keys of the version the participant ran: the pinned one, unless the
  // participant is stamped with another known version (docs/decisions/0047).
  const study = facts.study ?? studyDefinition;
  const own = (base.study_version_id && facts.versions?.get(base.study_version_id)) || study;
  const baseline = intentValue(answers.baseline?.[own.baseline.key]);
  const post = intentValue(answers.post?.[own.post.key]);
  const points = chatPoints(chat.turns, chat.chars);
  const reached = facts.threads.has(base.user_id);
  // As stored: written only from the conditions of the version the participant ran (docs/decisions/0061).
  const condition = base.assigned_condition;
  const sections = Array.from({ length: sectionCountOf(study) }, (_, index) => exposures?.get(index));
  const summary = sectionSummary(study, condition, sections);
  const role = entryChoiceOf(own, answers.entry?.[own.entry.key]);
  const entryChoice = role === null ? null : ENTRY_CHOICE_NAMES[role];
  const completed = base.completion_pathway === 'complete';
  return {
    experimentId,
    userId: base.user_id,
    email: base.email,
    assignmentId: base.assignment_id,
    prolificPid: base.prolific_pid,
    studyId: base.study_id,
    sessionId: base.session_id,
    condition,
    stratum: base.stratum,
    conditionAssignedAt: toIsoOrNull(base.condition_assigned_at),
    assignmentCreatedAt: toIso(base.created_at),
    lastLoginAt: toIsoOrNull(base.last_login_at),
    consentGiven: toBool(base.consent_given),
    consentTimestamp: toIsoOrNull(base.consent_timestamp),
    entryChoice,
    baselineIntention: baseline,
    pre: Object.fromEntries(own.pre.questions.map((q) => [q.key, text(answers.pre?.[q.key])])),
    sections,
    chatTurns: reached ? chat.turns : null,
    userCharCount: reached ? chat.chars : null,
    chatPoints: reached ? points : null,
    // By the condition's completion rule in the study (the spec's unless the study sets one).
    chatComplete: reached ? isChatComplete(points, chat.turns, chatRuleFor(study.chat.completion, condition)) : null,
    chatClosedBy: facts.threads.get(base.user_id) ?? null,
    assistantMessages: reached ? (usage?.messages ?? 0) : null,
    assistantInputTokens: usage ? usage.inputTokens : null,
    assistantOutputTokens: usage ? usage.outputTokens : null,
    assistantCostUsd: usage ? usage.costUsd : null,
    postIntent: post,
    delta: baseline !== null && post !== null ? post - baseline : null,
    // Only the whole study is the intervention: a screened-out participant never has this time.
    interventionCompletedAt: completed ? toIsoOrNull(base.intervention_completed_timestamp) : null,
    completionPathway: base.completion_pathway,
    completionCode: base.completion_code,
    completedAt: toIsoOrNull(base.completed_at),
    status: facts.statuses?.get(base.user_id) ?? null,
    pathway: pathwayOf(base.completion_pathway, entryChoice, baseline),
    randomisationBlock: base.block_index ?? null,
    randomisationPosition: base.slot_seq == null ? null : ((base.slot_seq - 1) % blockSize(conditionIds(study))) + 1,
    allSectionsMinMet: summary.allMet,
    duplicateProlificPid: base.prolific_pid === null ? null : (facts.duplicatePids?.has(base.prolific_pid) ?? false),
    hiddenTimeShare: summary.hiddenShare,
    pasteAttempts: reached ? (facts.pastes?.get(base.user_id) ?? 0) : null,
    isTest: toBool(base.is_test),
    studyVersionId: base.study_version_id,
  };
}

export function toDetailedRow(
  record: ParticipantRecord,
  status: DetailedParticipantRow['status'],
): Omit<DetailedParticipantRow, 'is_test'> {
  return {
    assignment_id: record.assignmentId,
    user_id: record.userId,
    assigned_condition: record.condition,
    last_login_at: record.lastLoginAt,
    chat_turns: record.chatTurns ?? 0,
    user_char_count: record.userCharCount ?? 0,
    pre_intent: record.baselineIntention,
    post_intent: record.postIntent,
    delta: record.delta,
    status,
  };
}

import {
  JOURNEY_STEPS,
  LIKERT_MAX,
  PATHWAY_STEP,
  PATHWAYS,
  type Condition,
  type JourneyStepName,
  type Pathway,
} from '@studychat/contracts';

// The participant's step machine as pure functions over their records (docs/decisions/0009): no database,
// no clock of its own, no particular study. journey.service.ts loads the records and applies these rules.

/** A section of the participant's condition with the server's record of it (times in epoch milliseconds). */
export interface SectionRecord {
  minSeconds: number;
  openedAt: number | null;
  finishedAt: number | null;
}

/** What the participant's records say, as far as the order of the journey depends on them. */
export interface JourneyRecords {
  consented: boolean;
  /** The entry choice by its role in the study (its stored value is the study's; docs/decisions/0033). */
  entryChoice: 'continue' | 'exit' | null;
  /** Baseline intention 1-7, or null when not answered. */
  baseline: number | null;
  preSurvey: boolean;
  condition: Condition | null;
  /** The assigned condition's sections in order (empty before a condition is assigned). */
  sections: readonly SectionRecord[];
  chatStarted: boolean;
  /** Complete by the server's own rounds and points (chat-progress.ts), or ended by a limit. */
  chatComplete: boolean;
  postSurvey: boolean;
  /** The recorded completion pathway, or null. */
  completion: Pathway | null;
}

export interface JourneyPosition {
  step: JourneyStepName;
  /** The section to open or finish next while the step is 'sections'; null otherwise. */
  currentSection: number | null;
}

/** A write a participant makes, each accepted at exactly one step. */
export type JourneyWrite =
  | { kind: 'consent' }
  | { kind: 'entry' }
  | { kind: 'baseline' }
  | { kind: 'pre_survey' }
  | { kind: 'assignment' }
  | { kind: 'section_open'; index: number }
  | { kind: 'section_finish'; index: number }
  | { kind: 'chat_start' }
  | { kind: 'post_survey' }
  | { kind: 'completion'; pathway: Pathway };

export const NO_RECORDS: JourneyRecords = {
  consented: false,
  entryChoice: null,
  baseline: null,
  preSurvey: false,
  condition: null,
  sections: [],
  chatStarted: false,
  chatComplete: false,
  postSurvey: false,
  completion: null,
};

/** Position of a step in the journey's order. */
export function stepIndex(step: JourneyStepName): number {
  return JOURNEY_STEPS.indexOf(step);
}

/** Whether the participant is at `step` or beyond it on the way to completion (a completed journey is not). */
export function hasReached(position: JourneyPosition, step: JourneyStepName): boolean {
  return position.step !== 'completed' && stepIndex(position.step) >= stepIndex(step);
}

/** A section counts as read only when the server saw it finished no sooner than its minimum after opening. */
export function sectionFinishedInTime(section: SectionRecord): boolean {
  return (
    section.openedAt !== null &&
    section.finishedAt !== null &&
    section.finishedAt - section.openedAt >= section.minSeconds * 1000
  );
}

/** The participant's current step: the first one, in the journey's order, their records do not yet show done. */
export function computeStep(r: JourneyRecords): JourneyPosition {
  const at = (step: JourneyStepName, currentSection: number | null = null): JourneyPosition => ({
    step,
    currentSection,
  });
  if (r.completion !== null) return at('completed');
  if (!r.consented) return at('consent');
  if (r.entryChoice === null) return at('entry');
  if (r.entryChoice === 'exit') return at('confirm_exit');
  if (r.baseline === null) return at('baseline');
  if (r.baseline >= LIKERT_MAX) return at('ceiling_exit');
  if (!r.preSurvey) return at('pre_survey');
  if (r.condition === null) return at('assignment');
  const unread = r.sections.findIndex((s) => !sectionFinishedInTime(s));
  if (unread !== -1) return at('sections', unread);
  if (!r.chatComplete) return at('chat');
  if (!r.postSurvey) return at('post_survey');
  return at('completion');
}

/** The step at which a write is accepted. */
export function writeStep(write: JourneyWrite): JourneyStepName {
  switch (write.kind) {
    case 'consent':
      return 'consent';
    case 'entry':
      return 'entry';
    case 'baseline':
      return 'baseline';
    case 'pre_survey':
      return 'pre_survey';
    case 'assignment':
      return 'assignment';
    case 'section_open':
    case 'section_finish':
      return 'sections';
    case 'chat_start':
      return 'chat';
    case 'post_survey':
      return 'post_survey';
    case 'completion':
      return PATHWAY_STEP[write.pathway];
  }
}

/**
 * Whether the records already hold this write, so that a repeat returns the first result and changes
 * nothing (one response per survey, consent once, a condition once, each section once, one thread,
 * completion once whatever pathway is asked for again).
 */
export function isWriteDone(write: JourneyWrite, r: JourneyRecords): boolean {
  switch (write.kind) {
    case 'consent':
      return r.consented;
    case 'entry':
      return r.entryChoice !== null;
    case 'baseline':
      return r.baseline !== null;
    case 'pre_survey':
      return r.preSurvey;
    case 'assignment':
      return r.condition !== null;
    case 'section_open':
      return (r.sections[write.index]?.openedAt ?? null) !== null;
    case 'section_finish': {
      const section = r.sections[write.index];
      return section !== undefined && sectionFinishedInTime(section);
    }
    case 'chat_start':
      return r.chatStarted;
    case 'post_survey':
      return r.postSurvey;
    case 'completion':
      return r.completion !== null;
  }
}

/**
 * Whether a write that is not yet done is accepted now: only at its own step, and for sections only the
 * current one (opening section i needs every section before it finished; finishing needs it opened).
 * Whether enough time has passed to finish is the section service's rule, on the server's clock.
 */
export function isWriteAllowed(write: JourneyWrite, r: JourneyRecords, position: JourneyPosition): boolean {
  if (position.step !== writeStep(write)) return false;
  if (write.kind === 'section_open') return position.currentSection === write.index;
  if (write.kind === 'section_finish') {
    return position.currentSection === write.index && (r.sections[write.index]?.openedAt ?? null) !== null;
  }
  return true;
}

/** The pathway recorded, or the one whose completion step the participant has reached; else null. */
export function pathwayAt(position: JourneyPosition, r: JourneyRecords): Pathway | null {
  if (r.completion !== null) return r.completion;
  return PATHWAYS.find((pathway) => PATHWAY_STEP[pathway] === position.step) ?? null;
}

/** Where the participant is, in plain words, for the message of a refused write. */
export function whereYouAre(position: JourneyPosition, sectionCount: number): string {
  switch (position.step) {
    case 'consent':
      return 'you have not given your consent yet';
    case 'entry':
      return 'you are at the appointment reminder, the first question of the study';
    case 'baseline':
      return 'you are at the intention question';
    case 'pre_survey':
      return 'you are at the pre-study survey';
    case 'assignment':
      return 'you have answered the pre-study survey and are about to be assigned to a study condition';
    case 'sections':
      return `you are reading section ${(position.currentSection ?? 0) + 1} of ${sectionCount}`;
    case 'chat':
      return 'you are at the chat with the AI assistant';
    case 'post_survey':
      return 'you are at the last survey';
    case 'confirm_exit':
    case 'ceiling_exit':
    case 'completion':
      return 'you have finished the study; only your completion code is left';
    case 'completed':
      return 'you have already completed the study';
  }
}

import {
  flowOfLegacy,
  JOURNEY_STEPS,
  LEGACY_STEP,
  PATHWAY_STEP,
  PATHWAYS,
  type AnswerValue,
  type Condition,
  type FlowDefinition,
  type JourneyStepName,
  type Pathway,
  type StudyDefinition,
} from '@studychat/contracts';
import { flowPosition, sectionFinishedInTime, type FlowRecords, type SectionRecord } from './flow-position.js';

export { sectionFinishedInTime, type SectionRecord };

// The participant's step machine for a study in the built-in shape, as pure functions over their records
// (docs/decisions/0009): no database, no clock of its own. Where the participant is comes from the study's flow
// (flow/legacy.ts), interpreted by the one engine every flow runs on (flow-position.ts); the spec's routes and
// their writes keep their names here. journey.service.ts loads the records and applies these rules.

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

const studyFlows = new WeakMap<StudyDefinition, BuiltInFlow>();

/** A study in the built-in shape as the flow the engine runs, with the keys its records are stored under. */
export interface BuiltInFlow {
  flow: FlowDefinition;
  entryKey: string;
  entryValues: { continue: string; exit: string };
  baselineKey: string;
}

/** The study's flow (flowOfLegacy), built once per definition. */
export function builtInFlow(study: StudyDefinition): BuiltInFlow {
  let built = studyFlows.get(study);
  if (!built) {
    built = {
      flow: flowOfLegacy(study),
      entryKey: study.entry.key,
      entryValues: study.entry.values,
      baselineKey: study.baseline.key,
    };
    studyFlows.set(study, built);
  }
  return built;
}

/** The spec's step name of each of the built-in flow's steps (its end steps by their pathway). */
const SPEC_STEP: Readonly<Record<string, JourneyStepName>> = {
  [LEGACY_STEP.consent]: 'consent',
  [LEGACY_STEP.entry]: 'entry',
  [LEGACY_STEP.baseline]: 'baseline',
  [LEGACY_STEP.pre]: 'pre_survey',
  [LEGACY_STEP.randomise]: 'assignment',
  [LEGACY_STEP.reading]: 'sections',
  [LEGACY_STEP.chat]: 'chat',
  [LEGACY_STEP.post]: 'post_survey',
  ...Object.fromEntries(PATHWAYS.map((pathway) => [`end_${pathway}`, PATHWAY_STEP[pathway]])),
};

/** The records as the flow engine reads them: the entry choice and baseline as the study stores their answers. */
function asFlowRecords(r: JourneyRecords, built: BuiltInFlow): FlowRecords {
  const answers: Record<string, AnswerValue> = {};
  const answered = new Set<string>();
  if (r.entryChoice !== null) {
    answers[built.entryKey] = built.entryValues[r.entryChoice];
    answered.add(LEGACY_STEP.entry);
  }
  if (r.baseline !== null) {
    answers[built.baselineKey] = r.baseline;
    answered.add(LEGACY_STEP.baseline);
  }
  if (r.preSurvey) answered.add(LEGACY_STEP.pre);
  if (r.postSurvey) answered.add(LEGACY_STEP.post);
  return {
    consented: r.consented,
    answers,
    answered,
    stepsDone: new Set(),
    condition: r.condition,
    sections: r.sections,
    chatStarted: r.chatStarted,
    chatComplete: r.chatComplete,
    completion: r.completion,
  };
}

/** The participant's current step: the first step of the study's flow their records do not yet show done. */
export function computeStep(r: JourneyRecords, built: BuiltInFlow): JourneyPosition {
  const position = flowPosition(built.flow, asFlowRecords(r, built));
  if (position.step === null) return { step: 'completed', currentSection: null };
  const step = SPEC_STEP[position.step.id];
  // flowOfLegacy names every step this table does.
  if (!step) throw new Error(`the built-in study's flow has no spec step for "${position.step.id}"`);
  return { step, currentSection: step === 'sections' ? position.currentSection : null };
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

import { ENTRY_CHOICE_NAMES, type Journey, type SectionTiming, type StaticSection } from '@studychat/contracts';
import type { SectionViewRow } from '../../db/schema.js';
import { toIso, toIsoOrNull, toNumberOrNull } from '../../db/values.js';
import { toCompletionStatus } from './assignment.mapper.js';
import type { JourneyState } from './journey-records.js';
import { pathwayAt, sectionFinishedInTime, type SectionRecord } from './journey-steps.js';

/** Milliseconds before the server accepts finishing a section: the full minimum until opened, 0 once read. */
export function remainingMs(record: SectionRecord, nowMs: number): number {
  if (sectionFinishedInTime(record)) return 0;
  if (record.openedAt === null) return record.minSeconds * 1000;
  return Math.max(0, record.openedAt + record.minSeconds * 1000 - nowMs);
}

/** One section of the condition with the server's times, as the browser reads it. */
export function toSectionTiming(
  section: StaticSection,
  index: number,
  record: SectionRecord,
  view: SectionViewRow | undefined,
  nowMs: number,
): SectionTiming {
  const ms = Math.ceil(remainingMs(record, nowMs));
  return {
    index,
    id: view?.section_id ?? section.id,
    minSeconds: record.minSeconds,
    openedAt: toIsoOrNull(view?.opened_at),
    finishedAt: toIsoOrNull(view?.finished_at),
    remainingSeconds: Math.ceil(ms / 1000),
    remainingMs: ms,
    visibleSeconds: toNumberOrNull(view?.visible_seconds),
    hiddenSeconds: toNumberOrNull(view?.hidden_seconds),
  };
}

/** The section at `index` of the participant's condition, with its server times. */
export function sectionTimingAt(state: JourneyState, index: number, nowMs: number): SectionTiming | null {
  const section = state.sections[index];
  const record = state.records.sections[index];
  if (!section || !record) return null;
  const view = state.facts.views.find((v) => v.section_index === index);
  return toSectionTiming(section, index, record, view, nowMs);
}

/** The one place a participant's journey state becomes the browser's Journey. */
export function toJourney(state: JourneyState, now: Date): Journey {
  const { records, position, facts } = state;
  const nowMs = now.getTime();
  return {
    experimentId: facts.assignment.experiment_id,
    step: position.step,
    currentSection: position.currentSection,
    done: {
      consent: records.consented,
      entry: records.entryChoice !== null,
      baseline: records.baseline !== null,
      preSurvey: records.preSurvey,
      assignment: records.condition !== null,
      sections: records.condition !== null && records.sections.every(sectionFinishedInTime),
      chat: records.chatComplete,
      postSurvey: records.postSurvey,
      completion: records.completion !== null,
    },
    entryChoice: records.entryChoice === null ? null : ENTRY_CHOICE_NAMES[records.entryChoice],
    baselineIntention: records.baseline,
    condition: records.condition,
    pathway: pathwayAt(position, records),
    completion: toCompletionStatus(facts.assignment),
    sections: state.sections.flatMap((_, index) => sectionTimingAt(state, index, nowMs) ?? []),
    chat: { threadId: facts.chat.threadId, ...facts.chat.progress, closed: facts.chat.closed },
    serverTime: toIso(now),
  };
}

import type { Kysely } from 'kysely';
import { chatRuleFor, sectionMinSeconds, type StaticSection, type StudyDefinition } from '@studychat/contracts';
import type { AssignmentRow, DB, SectionViewRow } from '../../db/schema.js';
import { toMillis } from '../../db/values.js';
import { chatStepDone, NO_CHAT, toChatFacts, type ChatFacts } from './chat-facts.js';
import { toAssignment } from './assignment.mapper.js';
import { toSurveyFacts, type SurveyFacts } from './survey-answers.js';
import { readJourneyFacts, type JourneyFactRows } from './journey-facts.repository.js';
import { builtInFlow, computeStep, type JourneyPosition, type JourneyRecords } from './journey-steps.js';

/** Everything the journey reads about one participant in one experiment, from the modules that own it. */
export interface JourneyFacts {
  assignment: AssignmentRow;
  surveys: SurveyFacts;
  /** The server's section records (empty when not loaded: before the sections step). */
  views: readonly SectionViewRow[];
  chat: ChatFacts;
}

export interface JourneyState {
  facts: JourneyFacts;
  records: JourneyRecords;
  position: JourneyPosition;
  /** The assigned condition's sections in the study definition (empty before a condition). */
  sections: readonly StaticSection[];
}

/** The facts as the step machine's records, with the condition's sections from the study definition. */
export function toState(facts: JourneyFacts, study: StudyDefinition): JourneyState {
  const assignment = toAssignment(facts.assignment);
  const condition = assignment.assigned_condition;
  const sections = condition ? (study.conditions[condition]?.sections ?? []) : [];
  const records: JourneyRecords = {
    consented: assignment.consent_given || assignment.consent_timestamp !== null,
    entryChoice: facts.surveys.entryChoice,
    baseline: facts.surveys.baseline,
    preSurvey: facts.surveys.pre,
    condition,
    sections: sections.map((section, index) => {
      const view = facts.views.find((v) => v.section_index === index);
      return {
        // The minimum in force when the section was opened; the study's own before that.
        minSeconds: view?.min_seconds ?? sectionMinSeconds(section),
        openedAt: view ? toMillis(view.opened_at) : null,
        finishedAt: view?.finished_at ? toMillis(view.finished_at) : null,
      };
    }),
    chatStarted: facts.chat.threadId !== null,
    chatComplete: chatStepDone(facts.chat),
    postSurvey: facts.surveys.post,
    completion: assignment.completed_at === null ? null : assignment.completion_pathway,
  };
  return { facts, records, position: computeStep(records, builtInFlow(study)), sections };
}

/** The facts as the modules that own them read their rows (the surveys by the study's answer keys). */
export function toFacts(rows: JourneyFactRows, study: StudyDefinition): JourneyFacts {
  // The chat is complete by the assigned condition's rule in the study (the spec's unless it sets one).
  const rule = chatRuleFor(study.chat.completion, toAssignment(rows.assignment).assigned_condition);
  return {
    assignment: rows.assignment,
    surveys: toSurveyFacts(study, rows.surveys),
    views: rows.views,
    chat: rows.thread ? toChatFacts(rows.thread, rows.messages, rule) : NO_CHAT,
  };
}

/** The participant's facts and step in one read (journey-facts.repository.ts); undefined before they joined. */
export async function readJourneyState(
  db: Kysely<DB>,
  study: StudyDefinition,
  userId: string,
  experimentId: string,
): Promise<JourneyState | undefined> {
  const rows = await readJourneyFacts(db, userId, experimentId);
  return rows && toState(toFacts(rows, study), study);
}

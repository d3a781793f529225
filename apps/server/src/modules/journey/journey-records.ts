import type { Kysely } from 'kysely';
import { sectionMinSeconds, type StaticSection, type StudyDefinition } from '@studychat/contracts';
import type { AssignmentRow, DB, SectionViewRow } from '../../db/schema.js';
import { toMillis } from '../../db/values.js';
import { chatFacts, chatStepDone, NO_CHAT, type ChatFacts } from '../chat/chat-facts.js';
import { toAssignment } from '../participants/assignment.mapper.js';
import { surveyFacts, type SurveyFacts } from '../surveys/survey-answers.js';
import { computeStep, hasReached, type JourneyPosition, type JourneyRecords } from './journey-steps.js';
import { listSectionViews } from './section-views.repository.js';

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
  const sections = condition ? study.conditions[condition].sections : [];
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
  return { facts, records, position: computeStep(records), sections };
}

/** Which facts a caller needs beyond those that decide the step. */
export interface LoadScope {
  views?: boolean;
  chat?: boolean;
}

/**
 * Loads the participant's facts and computes their step. Later facts are read only when the step needs
 * them (the step is the first one not done, so the section records do not matter before the sections, nor
 * the chat before the chat), unless `scope` asks for them: a write's idempotent repeat, or the full read.
 */
export async function loadJourneyState(
  db: Kysely<DB>,
  study: StudyDefinition,
  assignment: AssignmentRow,
  scope: LoadScope = {},
): Promise<JourneyState> {
  const { user_id: userId, experiment_id: experimentId } = assignment;
  const facts: JourneyFacts = {
    assignment,
    surveys: await surveyFacts(db, study, userId, experimentId),
    views: [],
    chat: NO_CHAT,
  };
  let state = toState(facts, study);
  if (scope.views || hasReached(state.position, 'sections')) {
    facts.views = await listSectionViews(db, assignment.id);
    state = toState(facts, study);
  }
  if (scope.chat || hasReached(state.position, 'chat')) {
    facts.chat = await chatFacts(db, userId, experimentId);
    state = toState(facts, study);
  }
  return state;
}

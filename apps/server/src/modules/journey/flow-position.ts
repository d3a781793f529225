import {
  checkPasses,
  ruleHolds,
  stepsFor,
  type Answers,
  type EndStep,
  type FlowDefinition,
  type FlowStep,
} from '@studychat/contracts';

// Where a participant is in a flow (docs/decisions/0075), as a pure function of their records: the first step
// of their condition's walk that their records do not show done. A screen whose rule holds, or an attention
// check that ends the study, moves them to their pathway's end step. No database, no clock, no particular study.

/** A section of the participant's condition with the server's record of it (times in epoch milliseconds). */
export interface SectionRecord {
  minSeconds: number;
  openedAt: number | null;
  finishedAt: number | null;
}

/** A section counts as read only when the server saw it finished no sooner than its minimum after opening. */
export function sectionFinishedInTime(section: SectionRecord): boolean {
  return (
    section.openedAt !== null &&
    section.finishedAt !== null &&
    section.finishedAt - section.openedAt >= section.minSeconds * 1000
  );
}

/** What a participant's records say, as far as the flow depends on them. */
export interface FlowRecords {
  consented: boolean;
  /** Every answer by key, and each confirmed AI text by its step id. */
  answers: Answers;
  /** The questions steps with a stored response. */
  answered: ReadonlySet<string>;
  /** The page and AI text steps done. */
  stepsDone: ReadonlySet<string>;
  condition: string | null;
  /** The reading step's sections for the participant's condition, with the server's records. */
  sections: readonly SectionRecord[];
  chatStarted: boolean;
  /** Complete by the arm's rule, or ended by a limit. */
  chatComplete: boolean;
  /** The pathway recorded at completion, or null. */
  completion: string | null;
}

export interface FlowPosition {
  /** The step the participant is at; null once their completion is recorded. */
  step: FlowStep | null;
  /** The pathway of the end step they reached (or recorded), else null. */
  pathway: string | null;
  /** The section to open or finish next at a reading step; null otherwise. */
  currentSection: number | null;
  /** The keys of attention checks failed that only flag. */
  flagged: string[];
}

function endOf(flow: FlowDefinition, pathway: string): EndStep {
  const end = flow.steps.find((s): s is EndStep => s.type === 'end' && s.pathway === pathway);
  // The flow's checks (flow/checks.ts) give every pathway a screen or check can end with its end step.
  if (!end) throw new Error(`the flow has no end step for the pathway "${pathway}"`);
  return end;
}

/** Whether the records show this step done (screens and ends are never done: they decide or wait). */
export function stepDone(step: FlowStep, r: FlowRecords): boolean {
  switch (step.type) {
    case 'page':
      return step.consent ? r.consented : r.stepsDone.has(step.id);
    case 'questions':
      return r.answered.has(step.id);
    case 'ai_text':
      return r.stepsDone.has(step.id);
    case 'randomise':
      return r.condition !== null;
    case 'reading':
      // Every section of the condition read in time (a condition with none has nothing to read).
      return r.sections.every(sectionFinishedInTime);
    case 'chat':
      return r.chatComplete;
    case 'screen':
    case 'end':
      return false;
  }
}

/** The participant's position in the flow. */
export function flowPosition(flow: FlowDefinition, r: FlowRecords): FlowPosition {
  const flagged: string[] = [];
  const at = (step: FlowStep | null, pathway: string | null = null, currentSection: number | null = null) => ({
    step,
    pathway,
    currentSection,
    flagged,
  });
  if (r.completion !== null) return at(null, r.completion);
  for (const step of stepsFor(flow, r.condition)) {
    if (step.type === 'screen') {
      if (ruleHolds(step.when, r.answers)) return at(endOf(flow, step.pathway), step.pathway);
      continue;
    }
    if (step.type === 'end') return at(step, step.pathway);
    if (!stepDone(step, r)) {
      if (step.type !== 'reading') return at(step);
      return at(
        step,
        null,
        Math.max(
          0,
          r.sections.findIndex((s) => !sectionFinishedInTime(s)),
        ),
      );
    }
    if (step.type === 'questions') {
      for (const question of step.questions) {
        if (checkPasses(question, r.answers[question.key])) continue;
        const failure = question.check?.onFail;
        if (failure && 'end' in failure) return at(endOf(flow, failure.end), failure.end);
        flagged.push(question.key);
      }
    }
  }
  // The flow's checks give every condition's walk an end step; were there none, there is nowhere to go.
  throw new Error('the flow ended without an end step');
}

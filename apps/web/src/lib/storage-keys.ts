// Browser storage keys exactly as spec section 3 names them.

export const SESSION_KEYS = {
  PROLIFIC_PID: 'PROLIFIC_PID',
  EXPERIMENT_ID: 'EXPERIMENT_ID',
  /** Not named by the spec: STUDY_ID and SESSION_ID from the landing URL, when present. */
  STUDY_ID: 'STUDY_ID',
  SESSION_ID: 'SESSION_ID',
  consentGiven: 'consentGiven',
  entrySubmitted: 'entrySubmitted',
  clicked_questions: 'clicked_questions',
  baselineSubmitted: 'baselineSubmitted',
  baselineIntention: 'baselineIntention',
  preSurveySubmitted: 'preSurveySubmitted',
  postSurveySubmitted: 'postSurveySubmitted',
  experimentCompleted: 'experimentCompleted',
  assignedCondition: 'assignedCondition',
  staticContentReviewed: 'staticContentReviewed',
  prolificLinkOpened: 'prolificLinkOpened',
} as const;

/** Cached completion status for an experiment (session storage). */
export const completionStatusKey = (experimentId: string) => `completion_status_${experimentId}`;

export const LOCAL_KEYS = { token: 'token' } as const;

/** Per-experiment local storage keys for static progress and the chat. */
export const experimentKeys = (id: string) => ({
  currentSection: `experiment_${id}_currentSection`,
  sectionStatus: `experiment_${id}_sectionStatus`,
  sectionStartTime: (index: number) => `experiment_${id}_sectionStartTime_${index}`,
  /** Not named by the spec: the visible-time countdown of a section on this device (remaining, visible, hidden ms). */
  sectionClock: (index: number) => `experiment_${id}_sectionClock_${index}`,
  threadId: `experiment_${id}_threadId`,
  messages: `experiment_${id}_messages`,
  rounds: `experiment_${id}_rounds`,
  chars: `experiment_${id}_chars`,
  points: `experiment_${id}_points`,
  complete: `experiment_${id}_complete`,
});

import type { CompletionStatus, Journey, JourneyStep, Pathway } from '@studychat/contracts/web';
import type { StudySession } from './study-storage';

/** The guarded participant steps (spec section 2). */
export type StudyStep =
  | 'consent'
  | 'entry'
  | 'confirm'
  | 'baseline-intention'
  | 'pre-survey'
  | 'static-intro'
  | 'static'
  | 'chat'
  | 'post-survey'
  | 'completion';

const EXPERIMENT_STEPS: readonly StudyStep[] = ['static-intro', 'static', 'chat'];

export interface GuardInput {
  step: StudyStep;
  /** The `:experimentId` of an experiment route. */
  routeExperimentId?: string | undefined;
  auth: { loggedIn: boolean; isAdmin: boolean };
  session: StudySession;
  /** Cached completion status; null when unknown. */
  completion: CompletionStatus | 'pending' | null;
  /** The server's journey ('pending' while it is read; null when unknown): it wins over the session. */
  journey?: Journey | 'pending' | null;
  /** The condition ids of the experiment's study, once read (null when it could not be read). */
  conditions?: readonly string[] | null;
}

export type GuardDecision =
  | { kind: 'allow' }
  | { kind: 'wait' }
  /** preSurveySubmitted is set but the experiment id or condition is missing: repair from the server. */
  | { kind: 'repair'; experimentId: string | null }
  | { kind: 'redirect'; to: string; pathway?: Pathway | undefined };

const redirect = (to: string, pathway?: Pathway | null): GuardDecision =>
  pathway ? { kind: 'redirect', to, pathway } : { kind: 'redirect', to };

/** The pages a participant may be on at each server step (the first one is where the step is done). */
const PAGES: Record<JourneyStep, readonly StudyStep[]> = {
  consent: ['consent'],
  entry: ['entry'],
  confirm_exit: ['completion'],
  baseline: ['baseline-intention'],
  ceiling_exit: ['completion'],
  pre_survey: ['pre-survey'],
  assignment: ['pre-survey'],
  sections: ['static-intro', 'static'],
  // Once the chat is complete the participant may keep chatting until they Proceed (spec section 4).
  chat: ['chat'],
  post_survey: ['post-survey', 'chat'],
  completion: ['completion'],
  completed: ['completion'],
};

/** The page of the participant's server step (with the pathway for the completion page). */
export function pageOfJourney(journey: Journey): { to: string; pathway: Pathway | null } {
  const experiment = `/experiment/${journey.experimentId}`;
  const page = (to: string) => ({ to, pathway: null });
  switch (journey.step) {
    case 'consent':
      return page('/consent');
    case 'entry':
      return page('/entry');
    case 'baseline':
      return page('/baseline-intention');
    case 'pre_survey':
    case 'assignment':
      return page('/pre-survey');
    case 'sections':
      return page(
        journey.sections.some((s) => s.openedAt !== null) ? `${experiment}/static` : `${experiment}/static-intro`,
      );
    case 'chat':
      return page(`${experiment}/chat`);
    case 'post_survey':
      return page('/post-survey');
    default:
      return { to: '/completion', pathway: journey.pathway };
  }
}

/** Where the server says the participant is: the page is allowed only at its step, else its step's page. */
function decideByJourney(step: StudyStep, routeExperimentId: string | undefined, journey: Journey): GuardDecision {
  const target = pageOfJourney(journey);
  const elsewhere = redirect(target.to, target.pathway);
  if (EXPERIMENT_STEPS.includes(step) && routeExperimentId !== journey.experimentId) return elsewhere;
  // The unlinked confirmation page has no step of its own: any time after consent, before completion.
  if (step === 'confirm') return journey.done.consent && journey.step !== 'completed' ? { kind: 'allow' } : elsewhere;
  return PAGES[journey.step].includes(step) ? { kind: 'allow' } : elsewhere;
}

/** Whether the server's journey lets the participant see this page (a journey a write's reply handed over). */
export function journeyAllows(step: StudyStep, routeExperimentId: string | undefined, journey: Journey): boolean {
  return decideByJourney(step, routeExperimentId, journey).kind === 'allow';
}

/**
 * Every guard of spec section 4, in order, as one pure decision. When the server's journey is known it
 * decides (the server wins); the session flags decide only when it is not (an admin, or no answer).
 */
export function decideStudyRoute(input: GuardInput): GuardDecision {
  const { step, session, auth } = input;
  const isExperimentStep = EXPERIMENT_STEPS.includes(step);

  if (!auth.loggedIn) return redirect(isExperimentStep ? '/login' : '/prolific');

  const { journey } = input;
  if (!auth.isAdmin && journey === 'pending') return { kind: 'wait' };
  if (!auth.isAdmin && journey && journey !== 'pending') return decideByJourney(step, input.routeExperimentId, journey);

  if (!auth.isAdmin && step !== 'completion') {
    if (input.completion === 'pending') return { kind: 'wait' };
    if (input.completion?.alreadyCompleted) return redirect('/completion', input.completion.completionPathway);
  }
  if (step === 'completion') return { kind: 'allow' };

  if (step === 'consent') return session.consentGiven ? redirect('/entry') : { kind: 'allow' };
  if (!session.consentGiven) return redirect('/consent');

  if (session.preSurveySubmitted && (!session.experimentId || !session.assignedCondition)) {
    return { kind: 'repair', experimentId: session.experimentId ?? input.routeExperimentId ?? null };
  }

  if (step === 'pre-survey') {
    if (!session.entrySubmitted) return redirect('/entry');
    if (!session.baselineIntention) return redirect('/baseline-intention');
  }

  if (isExperimentStep) {
    // The condition must be one of the study's conditions (spec section 4: "mmr or control" for the MMR study).
    const condition = session.assignedCondition;
    const known = !input.conditions || (condition !== null && input.conditions.includes(condition));
    if (!input.routeExperimentId || input.routeExperimentId !== session.experimentId || !condition || !known) {
      return redirect('/pre-survey');
    }
    if (session.experimentCompleted) return redirect('/completion', 'complete');
    if (session.staticContentReviewed && (step === 'static-intro' || step === 'static')) {
      return redirect(`/experiment/${input.routeExperimentId}/chat`);
    }
  }
  return { kind: 'allow' };
}

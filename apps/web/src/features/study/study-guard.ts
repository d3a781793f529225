import type { CompletionStatus, Pathway } from '@studychat/contracts/web';
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
  /** Cached or fetched completion status; 'pending' while it is being fetched; null when unknown. */
  completion: CompletionStatus | 'pending' | null;
}

export type GuardDecision =
  | { kind: 'allow' }
  | { kind: 'wait' }
  /** preSurveySubmitted is set but the experiment id or condition is missing: repair from the server. */
  | { kind: 'repair'; experimentId: string | null }
  | { kind: 'redirect'; to: string; pathway?: Pathway | undefined };

const redirect = (to: string, pathway?: Pathway | null): GuardDecision =>
  pathway ? { kind: 'redirect', to, pathway } : { kind: 'redirect', to };

/** Every guard of spec section 4, in order, as one pure decision. */
export function decideStudyRoute(input: GuardInput): GuardDecision {
  const { step, session, auth } = input;
  const isExperimentStep = EXPERIMENT_STEPS.includes(step);

  if (!auth.loggedIn) return redirect(isExperimentStep ? '/login' : '/prolific');

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
    if (!input.routeExperimentId || input.routeExperimentId !== session.experimentId || !session.assignedCondition) {
      return redirect('/pre-survey');
    }
    if (session.experimentCompleted) return redirect('/completion', 'complete');
    if (session.staticContentReviewed && (step === 'static-intro' || step === 'static')) {
      return redirect(`/experiment/${input.routeExperimentId}/chat`);
    }
  }
  return { kind: 'allow' };
}

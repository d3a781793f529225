import { Card } from '../../../components/Card';
import { StudyFooter } from '../../../components/StudyFooter';
import { useLocation } from '../../../lib/router';

/** What the completion page hands over: the ids it showed, for the footer (the study's storage is cleared). */
export interface FinishedState {
  participantId?: string | null;
  experimentId?: string | null;
}

/**
 * `/finished`: where "Finish & Close Window" leaves the participant, logged out and with the study's storage
 * cleared. It says they are done and may close the tab, and offers nothing to start again (issue 34).
 */
export function FinishedPage() {
  const state = (useLocation().state ?? {}) as FinishedState;
  return (
    <div className="flex min-h-dvh flex-col">
      <main className="mx-auto w-full max-w-md flex-1 px-4 pt-8 pb-6 sm:pt-16">
        <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Research study</p>
        <h1 className="mt-1 text-2xl font-bold text-slate-900 sm:text-3xl">You have finished the study</h1>
        <Card className="mt-6">
          <p className="text-base leading-relaxed text-slate-800 sm:text-lg">
            Thank you for taking part. Your responses have been recorded and you have been logged out of the study.
          </p>
          <p className="mt-4 text-base font-semibold text-slate-900 sm:text-lg">
            There is nothing more to do here: you may now close this tab.
          </p>
        </Card>
      </main>
      <StudyFooter participantId={state.participantId ?? null} experimentId={state.experimentId ?? null} />
    </div>
  );
}

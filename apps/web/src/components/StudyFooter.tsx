import { SESSION_KEYS } from '../lib/storage-keys';

/** Footer on every study page: participant id, experiment id and the not-medical-advice disclaimer. */
export const SPEC_FOOTER_DISCLAIMER =
  'This study is for research purposes only and does not provide medical advice. Please talk to a doctor or other qualified health professional about any health questions.';

export function StudyFooter({
  participantId,
  experimentId,
  disclaimer = SPEC_FOOTER_DISCLAIMER,
}: {
  participantId?: string | null;
  experimentId?: string | null;
  /** The study's own disclaimer (a flow's, issue 30); the spec's for the built-in study. */
  disclaimer?: string;
}) {
  const pid = participantId ?? sessionStorage.getItem(SESSION_KEYS.PROLIFIC_PID);
  const eid = experimentId ?? sessionStorage.getItem(SESSION_KEYS.EXPERIMENT_ID);
  return (
    <footer className="mt-10 border-t border-slate-200 px-4 py-5 text-center text-xs text-slate-600 sm:text-sm">
      <dl className="flex flex-col items-center gap-1 sm:flex-row sm:justify-center sm:gap-4">
        <div>
          <dt className="inline">Participant ID: </dt>
          <dd className="inline font-mono break-all">{pid ?? 'not set'}</dd>
        </div>
        <div>
          <dt className="inline">Experiment ID: </dt>
          <dd className="inline font-mono break-all">{eid ?? 'not set'}</dd>
        </div>
      </dl>
      <p className="mt-2">{disclaimer}</p>
    </footer>
  );
}

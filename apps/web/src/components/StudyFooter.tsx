import { SESSION_KEYS } from '../lib/storage-keys';

/** Footer on every study page: participant id, experiment id and the not-medical-advice disclaimer. */
export function StudyFooter({
  participantId,
  experimentId,
}: {
  participantId?: string | null;
  experimentId?: string | null;
}) {
  const pid = participantId ?? sessionStorage.getItem(SESSION_KEYS.PROLIFIC_PID);
  const eid = experimentId ?? sessionStorage.getItem(SESSION_KEYS.EXPERIMENT_ID);
  return (
    <footer className="mt-10 border-t border-slate-200 px-4 py-5 text-center text-xs text-slate-600 sm:text-sm">
      <p>
        <span>Participant ID: </span>
        <span className="font-mono break-all">{pid ?? 'not set'}</span>
        <span aria-hidden="true"> · </span>
        <span>Experiment ID: </span>
        <span className="font-mono break-all">{eid ?? 'not set'}</span>
      </p>
      <p className="mt-2">
        This study is for research purposes only and does not provide medical advice. Please talk to a doctor or other
        qualified health professional about any health questions.
      </p>
    </footer>
  );
}

import { SESSION_KEYS } from '../../lib/storage-keys';

/**
 * The participant's own `/prolific` landing, rebuilt from the ids session storage kept (Prolific and
 * experiment ids, and the study and session ids when present); null when this browser holds no study.
 */
export function studyLandingUrl(): string | null {
  const read = (key: keyof typeof SESSION_KEYS) => sessionStorage.getItem(SESSION_KEYS[key])?.trim() || null;
  const pid = read('PROLIFIC_PID');
  const experimentId = read('EXPERIMENT_ID');
  if (!pid || !experimentId) return null;
  const params = new URLSearchParams({ PROLIFIC_PID: pid, EXPERIMENT_ID: experimentId });
  const studyId = read('STUDY_ID');
  const sessionId = read('SESSION_ID');
  if (studyId) params.set('STUDY_ID', studyId);
  if (sessionId) params.set('SESSION_ID', sessionId);
  return `/prolific?${params.toString()}`;
}

import { endpoints, type ParticipantStudy } from '@studychat/contracts/web';
import { api, ApiError } from '../../lib/api';

// The study a participant's pages show comes from the server: the participant view of the study version
// the experiment pins (GET /api/participants/study/:experimentId, no prompts). It is read once per
// experiment and kept for the page's lifetime (a version a participant runs does not change).

/**
 * A study read: the study; 'unreachable' (network or server fault: worth another try); 'not-joined' (the
 * server has no participation of this account in the experiment: another try gives the same); undefined on a
 * 401, which has already sent the browser to /login (the page keeps waiting).
 */
export type StudyRead = ParticipantStudy | 'unreachable' | 'not-joined' | undefined;

const loaded = new Map<string, Promise<StudyRead>>();

/** The experiment's study for participants; a failed read is forgotten, so the next call asks again. */
export function loadParticipantStudy(experimentId: string): Promise<StudyRead> {
  let pending = loaded.get(experimentId);
  if (!pending) {
    pending = api(endpoints.studies.participantView, { params: { experimentId } }).catch((error: unknown) => {
      loaded.delete(experimentId);
      if (error instanceof ApiError && error.status === 401) return undefined;
      console.warn('could not read the study', error);
      return error instanceof ApiError && error.status >= 400 && error.status < 500 ? 'not-joined' : 'unreachable';
    });
    loaded.set(experimentId, pending);
  }
  return pending;
}

/** Forgets the studies read (tests: each starts with none). */
export function forgetParticipantStudies(): void {
  loaded.clear();
}

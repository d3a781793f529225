import { endpoints, type ParticipantStudy } from '@studychat/contracts/web';
import { api, ApiError } from '../../lib/api';

// The study a participant's pages show comes from the server: the participant view of the study version
// the experiment pins (GET /api/participants/study/:experimentId, no prompts). It is read once per
// experiment and kept for the page's lifetime (a version a participant runs does not change).

const loaded = new Map<string, Promise<ParticipantStudy | null | undefined>>();

/**
 * The experiment's study for participants; null when it cannot be read (the page then shows the built-in
 * study); undefined on a 401, which has already sent the browser to /login (the page keeps waiting).
 */
export function loadParticipantStudy(experimentId: string): Promise<ParticipantStudy | null | undefined> {
  let pending = loaded.get(experimentId);
  if (!pending) {
    pending = api(endpoints.studies.participantView, { params: { experimentId } }).catch((error: unknown) => {
      loaded.delete(experimentId);
      if (error instanceof ApiError && error.status === 401) return undefined;
      console.warn('could not read the study', error);
      return null;
    });
    loaded.set(experimentId, pending);
  }
  return pending;
}

/** Forgets the studies read (tests). */
export function clearParticipantStudies(): void {
  loaded.clear();
}

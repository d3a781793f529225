import {
  endpoints,
  type Assignment,
  type CompletionStatus,
  type Pathway,
  type SurveySubmission,
} from '@studychat/contracts/web';
import { api, ApiError } from '../../lib/api';
import { getToken } from '../../lib/session';
import { rememberJourney } from './journey-store';
import { readSession, writeCachedStatus } from './study-storage';
import { withRetry } from './with-retry';

/**
 * Creates the participant's assignment; on 409 (it exists) fetches the existing one (spec section 7). A
 * Prolific id another login already uses in the experiment (409 PROLIFIC_ID_TAKEN) is an error to show.
 */
export async function ensureAssignment(userId: string, experimentId: string): Promise<Assignment> {
  const prolificPid = readSession('PROLIFIC_PID');
  try {
    const created = await withRetry(() =>
      api(endpoints.participants.create, {
        body: {
          user_id: userId,
          experiment_id: experimentId,
          prolific_pid: prolificPid ?? '',
          study_id: readSession('STUDY_ID'),
          session_id: readSession('SESSION_ID'),
        },
      }),
    );
    // The consent page's guard takes the journey the reply carried (0068).
    rememberJourney(created.journey);
    return created;
  } catch (error) {
    if (error instanceof ApiError && error.status === 409 && error.code !== 'PROLIFIC_ID_TAKEN') {
      return api(endpoints.participants.get, { params: { userId, experimentId } });
    }
    throw error;
  }
}

/** The participant's assignment, or null when none exists (404). */
export async function findAssignment(userId: string, experimentId: string): Promise<Assignment | null> {
  try {
    return await api(endpoints.participants.get, { params: { userId, experimentId } });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/**
 * Submits a survey (retried once by default); errors carry the server's message or 'Failed to submit survey'.
 * The journey an entry or baseline answer's reply carries is kept for the next page's guard (0068).
 */
export async function submitSurvey(submission: SurveySubmission, retries = 1, delayMs = 0): Promise<void> {
  if (!getToken()) throw new Error('Authentication required');
  try {
    const reply = await withRetry(() => api(endpoints.surveys.submit, { body: submission }), retries, delayMs);
    rememberJourney(reply.journey);
  } catch (error) {
    if (error instanceof ApiError && error.message) throw error;
    throw new Error('Failed to submit survey');
  }
}

/** Records completion of a pathway; on success caches the status as already completed. */
export async function recordCompletion(experimentId: string, pathway: Pathway): Promise<CompletionStatus> {
  const status = await withRetry(() => api(endpoints.participants.completion, { body: { experimentId, pathway } }));
  writeCachedStatus(experimentId, {
    ...status,
    alreadyCompleted: true,
    completionPathway: status.completionPathway ?? pathway,
  });
  return status;
}

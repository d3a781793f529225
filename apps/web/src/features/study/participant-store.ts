import {
  endpoints,
  type Assignment,
  type CompletionStatus,
  type Journey,
  type Pathway,
  type FinishSectionBody,
  type SectionReply,
  type SurveySubmission,
} from '@studychat/contracts/web';
import { useSyncExternalStore } from 'react';
import { api, ApiError } from '../../lib/api';
import { currentUser, getToken } from '../../lib/session';
import { cacheJourney, readSession, writeCachedStatus } from './study-storage';
import { withRetry } from './with-retry';

// The participant's state in the browser: the server's journey as last read or handed back by a write, and the
// actions that change it on the server. Every participant write goes through an action here; a write whose reply
// carries the journey (docs/decisions/0068) updates the store, so the next page's guard need not ask again. The
// server's record is the truth: the store and the session flags it mirrors (spec section 3) only cache it.

interface ParticipantState {
  /** The server's journey; null before one is known (or after logout). */
  journey: Journey | null;
  /** When it was received (Date.now()). */
  receivedAt: number;
  /** Whose it is: the logged-in account when it was received (another login in this tab never sees it). */
  userId: string | null;
  /**
   * How many times the journey was read from the server. A page's guard follows reads (a page that was refused
   * asks where the participant is, and the guard takes them there) but not a write's reply: the page that wrote
   * moves on itself, in its own time (the pre-survey's 'Thank you! Redirecting...').
   */
  reads: number;
}

/** How long a journey is taken as current without asking the server again (a page's guard). */
export const JOURNEY_FRESH_MS = 30_000;

let state: ParticipantState = { journey: null, receivedAt: 0, userId: null, reads: 0 };
const listeners = new Set<() => void>();

/** Takes a journey the server sent (its read, or a write's reply) as the participant's current one. */
export function receiveJourney(journey: Journey, read = false): void {
  setJourney(journey, read);
}

function setJourney(journey: Journey, read = false): void {
  state = {
    journey,
    receivedAt: Date.now(),
    userId: currentUser()?.userId ?? null,
    reads: state.reads + (read ? 1 : 0),
  };
  cacheJourney(journey);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => state;

/** The participant's state; a component re-renders when an action or a read changes it. */
export function useParticipant(): ParticipantState {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** The journey of this experiment if the store holds one received within JOURNEY_FRESH_MS; else null. */
export function freshJourney(experimentId: string): Journey | null {
  const { journey, receivedAt, userId } = state;
  if (!journey || journey.experimentId !== experimentId || userId !== (currentUser()?.userId ?? null)) return null;
  return Date.now() - receivedAt > JOURNEY_FRESH_MS ? null : journey;
}

/** Forgets the journey (logout, and each test). */
export function resetParticipant(): void {
  state = { journey: null, receivedAt: 0, userId: null, reads: 0 };
  for (const listener of listeners) listener();
}

/** Reads the journey from the server into the store. */
export async function refreshJourney(experimentId: string): Promise<Journey> {
  const journey = await api(endpoints.journey.get, { params: { experimentId } });
  setJourney(journey, true);
  return journey;
}

/** Keeps the journey a write's reply carried (nothing when it had none). */
function handed(journey: Journey | undefined): void {
  if (journey) setJourney(journey);
}

/**
 * Joins the experiment (creates the participant's assignment); on 409 (it exists) fetches the existing one (spec
 * section 7). A Prolific id another login already uses in the experiment (409 PROLIFIC_ID_TAKEN) is an error.
 */
export async function join(userId: string, experimentId: string): Promise<Assignment & { flow?: boolean }> {
  try {
    const created = await withRetry(() =>
      api(endpoints.participants.create, {
        body: {
          user_id: userId,
          experiment_id: experimentId,
          prolific_pid: readSession('PROLIFIC_PID') ?? '',
          study_id: readSession('STUDY_ID'),
          session_id: readSession('SESSION_ID'),
        },
      }),
    );
    handed(created.journey);
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

/** Records consent. */
export async function giveConsent(experimentId: string): Promise<void> {
  const consented = await withRetry(() => api(endpoints.participants.consent, { body: { experimentId } }));
  handed(consented.journey);
}

/**
 * Submits a survey's answers (retried once by default); errors carry the server's message or 'Failed to submit
 * survey'.
 */
export async function answer(submission: SurveySubmission, retries = 1, delayMs = 0): Promise<void> {
  if (!getToken()) throw new Error('Authentication required');
  try {
    const reply = await withRetry(() => api(endpoints.surveys.submit, { body: submission }), retries, delayMs);
    handed(reply.journey);
  } catch (error) {
    if (error instanceof ApiError && error.message) throw error;
    throw new Error('Failed to submit survey');
  }
}

/** Asks the server to assign the participant's condition. */
export async function assignCondition(experimentId: string): Promise<Assignment> {
  const assignment = await withRetry(() => api(endpoints.participants.assignCondition, { body: { experimentId } }));
  handed(assignment.journey);
  return assignment;
}

/** Opens a reading section on the server's clock (a repeat answers the first opening). */
export function openSection(experimentId: string, sectionIndex: number): Promise<SectionReply> {
  return withRetry(() => api(endpoints.journey.openSection, { body: { experimentId, sectionIndex } }));
}

/** Finishes a reading section (the server opens the next one in the same write). */
export async function finishSection(finish: FinishSectionBody): Promise<SectionReply> {
  const reply = await api(endpoints.journey.finishSection, { body: finish });
  handed(reply.journey);
  return reply;
}

/** Records completion of a pathway; on success caches the status as already completed. */
export async function complete(experimentId: string, pathway: Pathway): Promise<CompletionStatus> {
  const status = await withRetry(() => api(endpoints.participants.completion, { body: { experimentId, pathway } }));
  writeCachedStatus(experimentId, {
    ...status,
    alreadyCompleted: true,
    completionPathway: status.completionPathway ?? pathway,
  });
  return status;
}

import { CONDITION_ID_PATTERN, type CompletionStatus, type Condition, type Journey } from '@studychat/contracts/web';
import { completionStatusKey, SESSION_KEYS } from '../../lib/storage-keys';

type SessionKey = keyof typeof SESSION_KEYS;

/** Reads one session value (null when unset). */
export function readSession(key: SessionKey): string | null {
  return sessionStorage.getItem(SESSION_KEYS[key]);
}

export function writeSession(key: SessionKey, value: string): void {
  sessionStorage.setItem(SESSION_KEYS[key], value);
}

export function removeSession(key: SessionKey): void {
  sessionStorage.removeItem(SESSION_KEYS[key]);
}

/** Flags are stored as 'true'; anything else counts as unset. */
export function readFlag(key: SessionKey): boolean {
  return readSession(key) === 'true';
}

export function setFlag(key: SessionKey): void {
  writeSession(key, 'true');
}

/** A condition id in form; which ids exist is the study's (the guard checks, docs/decisions/0061). */
export function isCondition(value: unknown): value is Condition {
  return typeof value === 'string' && CONDITION_ID_PATTERN.test(value);
}

/** The study-relevant part of session storage, as the guard needs it. */
export interface StudySession {
  experimentId: string | null;
  consentGiven: boolean;
  entrySubmitted: boolean;
  baselineIntention: string | null;
  preSurveySubmitted: boolean;
  assignedCondition: Condition | null;
  staticContentReviewed: boolean;
  experimentCompleted: boolean;
}

export function readStudySession(): StudySession {
  const condition = readSession('assignedCondition');
  return {
    experimentId: readSession('EXPERIMENT_ID'),
    consentGiven: readFlag('consentGiven'),
    entrySubmitted: readFlag('entrySubmitted'),
    baselineIntention: readSession('baselineIntention'),
    preSurveySubmitted: readFlag('preSurveySubmitted'),
    assignedCondition: isCondition(condition) ? condition : null,
    staticContentReviewed: readFlag('staticContentReviewed'),
    experimentCompleted: readFlag('experimentCompleted'),
  };
}

/** The cached completion status for an experiment, or null when none (or unreadable). */
export function readCachedStatus(experimentId: string): CompletionStatus | null {
  const raw = sessionStorage.getItem(completionStatusKey(experimentId));
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<CompletionStatus>;
    if (typeof parsed.alreadyCompleted !== 'boolean') return null;
    return {
      alreadyCompleted: parsed.alreadyCompleted,
      completionPathway: parsed.completionPathway ?? null,
      completionCode: parsed.completionCode ?? null,
    };
  } catch {
    return null;
  }
}

export function writeCachedStatus(experimentId: string, status: CompletionStatus): void {
  sessionStorage.setItem(completionStatusKey(experimentId), JSON.stringify(status));
}

/** Sets a flag when `on`, removes it otherwise: the session mirrors the server, never the other way round. */
function mirrorFlag(key: SessionKey, on: boolean): void {
  if (on) setFlag(key);
  else removeSession(key);
}

function mirror(key: SessionKey, value: string | null): void {
  if (value === null) removeSession(key);
  else writeSession(key, value);
}

/** Writes the server's journey into the session flags of spec section 3: storage is a cache of it. */
export function cacheJourney(journey: Journey): void {
  const { done } = journey;
  writeSession('EXPERIMENT_ID', journey.experimentId);
  mirrorFlag('consentGiven', done.consent);
  mirrorFlag('entrySubmitted', done.entry);
  mirror('clicked_questions', journey.entryChoice && (journey.entryChoice === 'questions' ? '1' : '0'));
  mirrorFlag('baselineSubmitted', done.baseline);
  mirror('baselineIntention', journey.baselineIntention === null ? null : String(journey.baselineIntention));
  mirrorFlag('preSurveySubmitted', done.assignment);
  mirror('assignedCondition', journey.condition);
  mirrorFlag('staticContentReviewed', done.sections);
  mirrorFlag('postSurveySubmitted', done.postSurvey);
  mirrorFlag('experimentCompleted', done.postSurvey);
  if (journey.completion.alreadyCompleted) writeCachedStatus(journey.experimentId, journey.completion);
}

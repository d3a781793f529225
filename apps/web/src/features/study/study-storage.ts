import { CONDITIONS, type CompletionStatus, type Condition } from '@studychat/contracts/web';
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

export function isCondition(value: unknown): value is Condition {
  return typeof value === 'string' && (CONDITIONS as readonly string[]).includes(value);
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

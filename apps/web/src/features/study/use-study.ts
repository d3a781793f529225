import { studyDefinition, type WebStudyDefinition } from '@studychat/contracts/web';
import { useJourney } from './journey-context';

/**
 * The study this page shows: the experiment's version as the server gave it to the study guard, or the
 * built-in study when there was none to read (kept out of the initial bundle: only the lazy pages import this).
 */
export function useStudy(): WebStudyDefinition {
  return useJourney().study ?? studyDefinition;
}

import type { Journey } from '@studychat/contracts/web';
import { createContext, useContext } from 'react';
import type { PageStudy } from './use-study';

export interface JourneyValue {
  /** The server's journey as the study guard read it for this page; null when unknown (admin, no answer). */
  journey: Journey | null;
  /** Reads the journey again (the guard then redirects if the server's step has moved elsewhere). */
  refresh: () => void;
  /** The study of the experiment's version (participant view, no prompts); null when unknown. Read with useStudy. */
  study?: PageStudy | null;
}

export const JourneyContext = createContext<JourneyValue>({ journey: null, refresh: () => undefined, study: null });

/** The participant's journey as the server records it, given to every study page by its guard. */
export function useJourney(): JourneyValue {
  return useContext(JourneyContext);
}

import type { Journey } from '@studychat/contracts/web';
import { createContext, useContext } from 'react';

export interface JourneyValue {
  /** The server's journey as the study guard read it for this page; null when unknown (admin, no answer). */
  journey: Journey | null;
  /** Reads the journey again (the guard then redirects if the server's step has moved elsewhere). */
  refresh: () => void;
}

export const JourneyContext = createContext<JourneyValue>({ journey: null, refresh: () => undefined });

/** The participant's journey as the server records it, given to every study page by its guard. */
export function useJourney(): JourneyValue {
  return useContext(JourneyContext);
}

import type { StudyDefinition, WebStudyDefinition } from '@studychat/contracts/web';
import { createContext, useContext } from 'react';

/** The study a page shows: the participant view of the experiment's version (no prompts), pre-survey included. */
export type PageStudy = WebStudyDefinition & { pre: StudyDefinition['pre'] };

/** The study the page's guard read for it; null outside a guard. */
export const StudyContext = createContext<PageStudy | null>(null);

/**
 * The study this page shows, as its guard read it: the experiment's version from the server, or the built-in
 * study for a page shown with no experiment. A page never renders without it (the guard waits, or shows the
 * read's failure with a retry), so there is no compiled-in study to fall back to.
 */
export function useStudy(): PageStudy {
  const study = useContext(StudyContext);
  if (!study) throw new Error('useStudy: a study page renders only inside its guard, which reads the study');
  return study;
}

import { PATHWAYS, PATHWAY_CODE_KEY } from '../constants.js';
import type { CodeKey, Pathway } from '../common.js';

// The pathways a study names (issue 14, docs/decisions/0056). The three pathways are the journey's three
// endings (the whole study; the no-concerns exit at the entry choice; the ceiling exit at baseline 7), each
// with the spec's code key. They are rules of the journey, not data: a study cannot add or remove one. What
// a study declares is what each means in its own words, for the researchers (the completion codes form and
// the card on the experiment page, the codebook of the exports); participants never see it.

/** How the researchers name one pathway: a short label and what it means. */
export interface PathwayText {
  /** A few words, e.g. 'no concerns at entry' (in the codebook: `'confirm' (no concerns at entry)`). */
  label: string;
  /** One or two sentences: when a participant ends on this pathway (the hint of the codes form). */
  description: string;
}

/** A study's names of its pathways; each one absent is the spec's (SPEC_PATHWAYS). */
export type StudyPathways = Partial<Record<Pathway, PathwayText>>;

/** The spec's meaning of each pathway, in the words the codebook and the codes form used before 0056. */
export const SPEC_PATHWAYS: Readonly<Record<Pathway, PathwayText>> = {
  complete: { label: 'whole study', description: 'Given after the post-survey.' },
  confirm: { label: 'no concerns at entry', description: "Given on the 'No concerns' path." },
  ceiling: { label: 'baseline intention 7', description: 'Given when baseline intention is already 7.' },
};

/** One pathway of a study, with its code key (the spec's, fixed) and the study's words for it. */
export interface StudyPathway extends PathwayText {
  pathway: Pathway;
  codeKey: CodeKey;
}

/** The three pathways in the spec's order, named as the study names them (the spec's words where it does not). */
export function studyPathways(study: { pathways?: StudyPathways | undefined } | undefined): StudyPathway[] {
  return PATHWAYS.map((pathway) => ({
    pathway,
    codeKey: PATHWAY_CODE_KEY[pathway],
    ...(study?.pathways?.[pathway] ?? SPEC_PATHWAYS[pathway]),
  }));
}

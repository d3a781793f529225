import { mmrPreSurvey, studyDefinition } from '@studychat/contracts/web';
import type { PageStudy } from './study-context';

/**
 * The built-in (MMR) study, for a study page shown with no experiment (an admin looking at the pages). The
 * guard loads this module only then, so no participant page carries the built-in texts in its JavaScript, and
 * a participant never sees them in place of their own study's.
 */
export const builtInStudy = { ...studyDefinition, pre: mmrPreSurvey } satisfies PageStudy;

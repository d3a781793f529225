import type { BuiltInStudyDefinition } from './types.js';
import { mmrStudyContent } from './mmr-study.content.js';
import { mmrStudyChat } from './mmr-study.chat.js';
import { mmrPreSurvey } from './mmr-study.survey.js';

/** The one study this product runs: MMR vaccine information vs. rear-facing car seats (control). */
export const studyDefinition: BuiltInStudyDefinition = { ...mmrStudyContent, pre: mmrPreSurvey, chat: mmrStudyChat };

import type { BuiltInStudyDefinition, WebStudyDefinition } from './types.js';
import { mmrStudyContent } from './mmr-study.content.js';
import { mmrFallbackGreetings } from './mmr-study.greeting.js';

/**
 * What the browser needs of the study: everything but the chat's system prompts and scripted replies,
 * which stay on the server (they are not for participants to read, and they are not small).
 */
export const studyDefinition: WebStudyDefinition &
  Pick<BuiltInStudyDefinition, 'conditions'> & { chat: Pick<BuiltInStudyDefinition['chat'], 'fallbackGreetings'> } = {
  ...mmrStudyContent,
  chat: { fallbackGreetings: mmrFallbackGreetings },
};

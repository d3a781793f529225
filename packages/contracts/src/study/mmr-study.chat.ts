import type { StudyDefinition } from './types.js';

// PLACEHOLDER until the chat work writes the prompts and scripted replies.
export const mmrStudyChat: StudyDefinition['chat'] = {
  conditions: {
    mmr: { systemPrompt: '', scripted: { opening: '', replies: [], closing: '' } },
    control: { systemPrompt: '', scripted: { opening: '', replies: [], closing: '' } },
  },
  fallbackGreeting: '',
};

import type { EntryValues } from './types.js';

// The MMR study's answer keys and entry values (spec sections 4 and 7), as data. They are also what a stored
// version from before these fields means (docs/decisions/0033): the keys it ran with.

export const MMR_ENTRY_KEY = 'choice';
export const MMR_ENTRY_VALUES: EntryValues = { continue: 'questions', exit: 'confirm' };
export const MMR_BASELINE_KEY = 'vaccination_intention';
export const MMR_POST_KEY = 'post_intent';

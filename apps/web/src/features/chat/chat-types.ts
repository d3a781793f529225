import type { ChatProgressValues } from '@studychat/contracts/web';

/** A message as the chat page shows it; `loading` marks the assistant bubble still waiting for text. */
export interface UiMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  created_at: string;
  loading?: boolean;
}

export type Progress = ChatProgressValues;

export const NO_PROGRESS: Progress = { rounds: 0, chars: 0, points: 0, complete: false };

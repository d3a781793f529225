import type { ChatClosure, ChatLimitsView, ChatProgressValues, MessageStatus } from '@studychat/contracts/web';

/** A message as the chat page shows it; `loading` marks the assistant bubble still waiting for text. */
export interface UiMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  created_at: string;
  loading?: boolean;
  status?: MessageStatus;
  /** While loading: the reply waits its turn at the AI provider, and this says so. */
  busy?: string;
}

/** Rounds and points, and whether the chat was ended (by a limit, or the participant's completion). */
export type Progress = ChatProgressValues & { closed: ChatClosure | null };

export const NO_PROGRESS: Progress = { rounds: 0, chars: 0, points: 0, complete: false, closed: null };

/** Until the server says otherwise: the default limits (docs/operating.md, "Chat limits"). */
export const DEFAULT_LIMITS: ChatLimitsView = { maxMessageChars: 1000, messagesLeft: 30 };

import type { ChatLimitsView } from '@studychat/contracts/web';
import { DEFAULT_LIMITS, NO_PROGRESS, type Progress, type UiMessage } from './chat-types';

// The chat page's state as a reducer: every change the page makes is one of these actions, so the state can
// be followed (and tested) without the network. useChat.ts runs the calls (chat-api.ts) and dispatches.

/**
 * idle: no thread yet (Start Conversation); restoring: re-reading a stored thread from the server;
 * starting: creating the thread; streaming: a reply is arriving (or being written for an earlier
 * visit: the page follows it); ready: the participant may send.
 */
export type ChatStatus = 'idle' | 'restoring' | 'starting' | 'streaming' | 'ready';

export interface ChatData {
  status: ChatStatus;
  threadId: string | null;
  messages: UiMessage[];
  progress: Progress;
  limits: ChatLimitsView;
  error: string | null;
  draft: string;
}

export type ChatAction =
  /** What the server has: the thread's messages, progress and limits (a read, or a reply's end). */
  | { type: 'synced'; messages?: UiMessage[]; progress?: Progress; limits?: ChatLimitsView }
  | { type: 'status'; status: ChatStatus }
  | { type: 'thread'; threadId: string | null }
  /** No thread any more (another login, reset data): begin again. */
  | { type: 'reset' }
  | { type: 'error'; error: string | null }
  | { type: 'draft'; draft: string }
  /** Unsent text goes back in the box without losing anything typed since. */
  | { type: 'restore-draft'; unsent: string }
  /** Messages added at the end (the participant's, and the reply's bubble). */
  | { type: 'append'; messages: UiMessage[] }
  /** Only the opening's bubble (a thread with nothing in it yet). */
  | { type: 'opening'; message: UiMessage }
  | { type: 'text'; id: string; piece: string }
  /** A message changed (or removed: `message` null). */
  | { type: 'patch'; id: string; change: (message: UiMessage) => UiMessage | null }
  | { type: 'remove'; ids: string[] };

export function initialChat(
  stored: { threadId: string | null; messages: UiMessage[]; progress: Progress } | null,
  error: string | null,
): ChatData {
  return {
    status: stored?.threadId ? 'restoring' : 'idle',
    threadId: stored?.threadId ?? null,
    messages: stored?.messages ?? [],
    progress: stored?.progress ?? NO_PROGRESS,
    limits: DEFAULT_LIMITS,
    error,
    draft: '',
  };
}

/** Puts unsent text back in the box without losing anything typed since. */
export function restoreDraft(current: string, unsent: string): string {
  return current.trim() ? `${unsent}\n${current}` : unsent;
}

export function chatReducer(state: ChatData, action: ChatAction): ChatData {
  switch (action.type) {
    case 'synced':
      return {
        ...state,
        ...(action.messages ? { messages: action.messages } : {}),
        ...(action.progress ? { progress: action.progress } : {}),
        ...(action.limits ? { limits: action.limits } : {}),
      };
    case 'status':
      return { ...state, status: action.status };
    case 'thread':
      return { ...state, threadId: action.threadId };
    case 'reset':
      return { ...state, threadId: null, messages: [], progress: NO_PROGRESS, status: 'idle' };
    case 'error':
      return { ...state, error: action.error };
    case 'draft':
      return { ...state, draft: action.draft };
    case 'restore-draft':
      return { ...state, draft: restoreDraft(state.draft, action.unsent) };
    case 'append':
      return { ...state, messages: [...state.messages, ...action.messages] };
    case 'opening':
      return { ...state, messages: [action.message], status: 'streaming' };
    case 'text':
      return {
        ...state,
        messages: state.messages.map((m) =>
          m.id === action.id ? { ...m, content: m.content + action.piece, loading: false } : m,
        ),
      };
    case 'patch':
      return {
        ...state,
        messages: state.messages.flatMap((m) => (m.id === action.id ? (action.change(m) ?? []) : [m])),
      };
    case 'remove':
      return { ...state, messages: state.messages.filter((m) => !action.ids.includes(m.id)) };
  }
}

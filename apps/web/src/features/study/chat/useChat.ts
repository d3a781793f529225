import {
  chatFallbackGreetings,
  chatPoints,
  isChatComplete,
  SPEC_CHAT_RULE,
  type ChatRule,
  type Condition,
} from '@studychat/contracts/web';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { ApiError } from '../../../lib/api';
import { StreamInterruptedError } from '../../../lib/sse';
import { initiate, readThread, sendMessage, storedOpening, streamOpening, toProgress } from './chat-api';
import { initializeError, MISSING_PROPS_ERROR, sendError, startError } from './chat-errors';
import { chatReducer, initialChat, type ChatData } from './chat-state';
import { loadChat, saveChat, type StoredChat } from './chat-storage';
import { NO_PROGRESS, type Progress, type UiMessage } from './chat-types';

export type { ChatStatus } from './chat-state';

export interface ChatState extends ChatData {
  setDraft: (text: string) => void;
  start: () => Promise<void>;
  send: () => Promise<void>;
  dismissError: () => void;
}

/** How often the page looks again at a reply being written for a request it no longer holds. */
export const FOLLOW_MS = 1000;

let localIds = 0;
const localId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++localIds}`;
const nowIso = () => new Date().toISOString();

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The built-in study's greeting, when the study's own could not be read. */
function builtInGreeting(condition: Condition | null): string {
  return condition === 'control' ? chatFallbackGreetings.control : chatFallbackGreetings.mmr;
}

/**
 * The chat's state and actions; the server is the source of truth, local storage a cache. `serverThreadId`
 * is the thread the server has for the participant, restored when this browser has none cached. The state is
 * a reducer (chat-state.ts); the calls are chat-api.ts.
 */
export function useChat(
  experimentId: string | undefined,
  userId: string | undefined,
  condition: Condition | null = null,
  serverThreadId: string | null = null,
  rule: ChatRule = SPEC_CHAT_RULE,
  fallbackGreeting?: string,
): ChatState {
  const stored = useRef(experimentId ? withServerThread(loadChat(experimentId, rule), serverThreadId) : null);
  const [state, dispatch] = useReducer(chatReducer, null, () =>
    initialChat(stored.current, experimentId && userId ? null : MISSING_PROPS_ERROR),
  );
  const { status, threadId, messages, progress } = state;
  const abort = useRef<AbortController | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    abort.current = controller;
    return () => controller.abort();
  }, []);
  const signal = () => abort.current?.signal;
  const alive = () => abort.current?.signal.aborted === false;

  // Cache to local storage whenever nothing is mid-stream.
  useEffect(() => {
    if (!experimentId || status === 'streaming' || status === 'starting') return;
    saveChat(experimentId, { threadId, messages, progress });
  }, [experimentId, threadId, messages, progress, status]);

  /** Streams the thread's opening message, falling back to the stored one, then the canned greeting. */
  const streamInitial = useCallback(
    async (thread: string) => {
      const bubbleId = localId('initial');
      dispatch({
        type: 'opening',
        message: { id: bubbleId, role: 'assistant', content: '', created_at: nowIso(), loading: true },
      });
      let content: string;
      try {
        const result = await streamOpening(
          thread,
          (piece) => dispatch({ type: 'text', id: bubbleId, piece }),
          signal(),
          (busy) => dispatch({ type: 'patch', id: bubbleId, change: (m) => ({ ...m, busy }) }),
        );
        if (result.error || !result.done || !result.text.trim())
          throw new Error(result.error ?? 'Error streaming initial message');
        content = result.text;
      } catch (streamFailure) {
        if (isAbort(streamFailure) || !alive()) return;
        console.warn('Error streaming initial message', streamFailure);
        content = await storedOpening(thread).catch(() => '');
        if (!alive()) return;
        if (!content.trim()) content = fallbackGreeting ?? builtInGreeting(condition);
      }
      dispatch({ type: 'patch', id: bubbleId, change: (m) => ({ ...m, content, loading: false }) });
      dispatch({ type: 'status', status: 'ready' });
    },
    [condition, fallbackGreeting],
  );

  /** Loads history, progress and limits from the server and shows them; null if the thread is gone. */
  const syncFromServer = useCallback(async (thread: string) => {
    const read = await readThread(thread, signal());
    if (read) dispatch({ type: 'synced', messages: read.messages, progress: read.progress, limits: read.limits });
    return read;
  }, []);

  /**
   * The thread as the server has it. While a reply is being written for a request this page no longer
   * holds (the participant left right after Send and came back, or the connection dropped), it follows
   * that reply until it is stored.
   */
  const followThread = useCallback(
    async (thread: string) => {
      let synced = await syncFromServer(thread);
      while (synced?.replying && alive()) {
        dispatch({ type: 'status', status: 'streaming' });
        await pause(FOLLOW_MS);
        if (!alive()) break;
        synced = await syncFromServer(thread);
      }
      return synced;
    },
    [syncFromServer],
  );

  /** Shows the thread (false if it is gone); a thread with nothing in it gets its opening message. */
  const showThread = useCallback(
    async (thread: string): Promise<boolean> => {
      const synced = await followThread(thread);
      if (synced === null) return false;
      if (!alive()) return true;
      if (synced.messages.length === 0 && !synced.progress.closed) await streamInitial(thread);
      else dispatch({ type: 'status', status: 'ready' });
      return true;
    },
    [followThread, streamInitial],
  );

  // A stored thread: show the cached conversation at once, then take the server's version.
  useEffect(() => {
    const thread = stored.current?.threadId;
    if (!thread || !experimentId || !userId) return;
    void (async () => {
      try {
        if (await showThread(thread)) return;
        // Not this participant's thread any more (another login, reset data): begin again.
        if (alive()) dispatch({ type: 'reset' });
      } catch (failure) {
        if (isAbort(failure) || !alive()) return;
        if (!stored.current?.messages.length) dispatch({ type: 'error', error: initializeError(failure) });
        dispatch({ type: 'status', status: 'ready' });
      }
    })();
  }, [experimentId, userId, showThread]);

  const start = useCallback(async () => {
    if (!experimentId || !userId) {
      dispatch({ type: 'error', error: MISSING_PROPS_ERROR });
      return;
    }
    dispatch({ type: 'error', error: null });
    dispatch({ type: 'status', status: 'starting' });
    let reply;
    try {
      reply = await initiate(experimentId, signal());
    } catch (failure) {
      if (isAbort(failure) || !alive()) return;
      dispatch({ type: 'error', error: startError(failure) });
      dispatch({ type: 'status', status: 'idle' });
      return;
    }
    if (!alive()) return;
    dispatch({ type: 'thread', threadId: reply.threadId });
    dispatch({
      type: 'synced',
      progress: toProgress(reply.progress),
      ...(reply.limits ? { limits: reply.limits } : {}),
    });
    if (!reply.messageCount && !reply.progress.closed) {
      await streamInitial(reply.threadId);
      return;
    }
    // The thread already had a conversation (local data was lost, or another device): show it.
    dispatch({ type: 'status', status: 'restoring' });
    try {
      await showThread(reply.threadId);
    } catch (failure) {
      if (isAbort(failure) || !alive()) return;
      dispatch({ type: 'error', error: initializeError(failure) });
      dispatch({ type: 'status', status: 'ready' });
    }
  }, [experimentId, userId, streamInitial, showThread]);

  const send = useCallback(async () => {
    const text = state.draft;
    if (!text.trim() || !threadId || status !== 'ready' || progress.closed) return;
    const roundsBefore = progress.rounds;
    const userMessage: UiMessage = { id: localId('user'), role: 'user', content: text, created_at: nowIso() };
    const bubbleId = localId('reply');
    const bubble: UiMessage = { id: bubbleId, role: 'assistant', content: '', created_at: nowIso(), loading: true };
    dispatch({ type: 'append', messages: [userMessage, bubble] });
    dispatch({ type: 'draft', draft: '' });
    dispatch({ type: 'error', error: null });
    dispatch({ type: 'status', status: 'streaming' });
    const dropEmptyBubble = () =>
      dispatch({ type: 'patch', id: bubbleId, change: (m) => (m.content ? { ...m, loading: false } : null) });

    /**
     * Shows the server's version of the thread. Unless the server has a full reply (its round count
     * went up), the text goes back in the box to send again: the server counts a resent message once.
     */
    async function reconcile(thread: string, sent: string) {
      let answered = false;
      try {
        const synced = await followThread(thread);
        answered = synced !== null && (synced.progress.rounds > roundsBefore || synced.progress.closed !== null);
      } catch {
        // Keep what is on screen; the next load re-reads the server.
      }
      if (!alive()) return;
      if (!answered) dispatch({ type: 'restore-draft', unsent: sent });
      dispatch({ type: 'status', status: 'ready' });
    }

    let result;
    try {
      result = await sendMessage(
        threadId,
        text,
        (piece) => dispatch({ type: 'text', id: bubbleId, piece }),
        signal(),
        // The reply waits its turn at the provider: the bubble says the assistant is busy (docs/decisions/0076).
        (busy) => dispatch({ type: 'patch', id: bubbleId, change: (m) => ({ ...m, busy }) }),
      );
    } catch (failure) {
      if (isAbort(failure) || !alive()) return;
      if (failure instanceof StreamInterruptedError) {
        // The server had the message; its reply may be stored in full. Show what the server has.
        dropEmptyBubble();
        dispatch({ type: 'error', error: sendError(failure) });
        await reconcile(threadId, text);
      } else if (failure instanceof ApiError && failure.code === 'CHAT_CLOSED') {
        // The chat has ended (a limit, or completion): the page says so and Proceed opens.
        dispatch({ type: 'remove', ids: [userMessage.id, bubbleId] });
        await reconcile(threadId, text);
      } else {
        // Refused or never arrived (e.g. a reply still in progress, too long, offline): nothing was stored.
        dispatch({ type: 'remove', ids: [userMessage.id, bubbleId] });
        dispatch({ type: 'restore-draft', unsent: text });
        dispatch({ type: 'error', error: sendError(failure) });
        dispatch({ type: 'status', status: 'ready' });
      }
      return;
    }
    if (!alive()) return;
    if (result.error || !result.done) {
      // The message reached the server, but the reply failed or was cut off.
      dropEmptyBubble();
      dispatch({ type: 'error', error: sendError(new Error(result.error ?? 'The connection was interrupted.')) });
      await reconcile(threadId, text);
      return;
    }
    if (!result.text.trim()) {
      // The model answered nothing: '[No response from assistant]'; the message can be sent again.
      dispatch({
        type: 'patch',
        id: bubbleId,
        change: (m) => ({ ...m, content: '', loading: false, status: 'empty' }),
      });
      await reconcile(threadId, text);
      return;
    }
    const replyText = result.text;
    dispatch({ type: 'patch', id: bubbleId, change: (m) => ({ ...m, content: replyText, loading: false }) });
    // The server counts rounds and points and knows the limits: the stream's last event says where the reply left
    // the chat; without it (an older server), the page counts by the same rules.
    const after = result.after;
    dispatch(
      after
        ? { type: 'synced', progress: toProgress(after.progress), limits: after.limits }
        : { type: 'synced', progress: addRound(progress, text, rule) },
    );
    dispatch({ type: 'status', status: 'ready' });
  }, [state.draft, threadId, status, progress, followThread, rule]);

  return {
    ...state,
    setDraft: (draft: string) => dispatch({ type: 'draft', draft }),
    start,
    send,
    dismissError: () => dispatch({ type: 'error', error: null }),
  };
}

/** The cached chat, or the server's thread with nothing cached (the messages are then read from the server). */
function withServerThread(cached: StoredChat, serverThreadId: string | null): StoredChat {
  if (!serverThreadId || cached.threadId === serverThreadId) return cached;
  return { threadId: serverThreadId, messages: [], progress: NO_PROGRESS };
}

function addRound(p: Progress, text: string, rule: ChatRule): Progress {
  const rounds = p.rounds + 1;
  const chars = p.chars + text.trim().length;
  const points = chatPoints(rounds, chars);
  return { rounds, chars, points, complete: isChatComplete(points, rounds, rule), closed: p.closed };
}

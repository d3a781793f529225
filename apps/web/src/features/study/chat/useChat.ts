import {
  chatFallbackGreetings,
  chatPoints,
  endpoints,
  isChatComplete,
  SPEC_CHAT_RULE,
  type ChatLimitsView,
  type ChatMessage,
  type ChatProgress,
  type ChatRule,
  type Condition,
} from '@studychat/contracts/web';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, ApiError } from '../../../lib/api';
import { streamEndpoint, StreamInterruptedError } from '../../../lib/sse';
import { initializeError, MISSING_PROPS_ERROR, sendError, startError } from './chat-errors';
import { loadChat, saveChat, type StoredChat } from './chat-storage';
import { DEFAULT_LIMITS, NO_PROGRESS, type Progress, type UiMessage } from './chat-types';

/**
 * idle: no thread yet (Start Conversation); restoring: re-reading a stored thread from the server;
 * starting: creating the thread; streaming: a reply is arriving (or being written for an earlier
 * visit: the page follows it); ready: the participant may send.
 */
export type ChatStatus = 'idle' | 'restoring' | 'starting' | 'streaming' | 'ready';

export interface ChatState {
  status: ChatStatus;
  threadId: string | null;
  messages: UiMessage[];
  progress: Progress;
  limits: ChatLimitsView;
  error: string | null;
  draft: string;
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

function toUi(messages: ChatMessage[]): UiMessage[] {
  return messages.map(({ id, role, content, created_at, status }) => ({
    id,
    role,
    content,
    created_at,
    status,
    // A reply still being written with nothing yet shows the typing dots.
    loading: status === 'streaming' && content === '',
  }));
}

/** The built-in study's greeting, when the study's own could not be read. */
function builtInGreeting(condition: Condition | null): string {
  return condition === 'control' ? chatFallbackGreetings.control : chatFallbackGreetings.mmr;
}

function toProgress(p: ChatProgress): Progress {
  return { rounds: p.rounds, chars: p.chars, points: p.points, complete: p.complete, closed: p.closed ?? null };
}

/**
 * The chat's state and actions; the server is the source of truth, local storage a cache. `serverThreadId`
 * is the thread the server has for the participant, restored when this browser has none cached.
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
  const [threadId, setThreadId] = useState<string | null>(stored.current?.threadId ?? null);
  const [messages, setMessages] = useState<UiMessage[]>(stored.current?.messages ?? []);
  const [progress, setProgress] = useState<Progress>(stored.current?.progress ?? NO_PROGRESS);
  const [limits, setLimits] = useState<ChatLimitsView>(DEFAULT_LIMITS);
  const [status, setStatus] = useState<ChatStatus>(stored.current?.threadId ? 'restoring' : 'idle');
  const [error, setError] = useState<string | null>(experimentId && userId ? null : MISSING_PROPS_ERROR);
  const [draft, setDraft] = useState('');
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

  const patch = useCallback((id: string, change: (m: UiMessage) => UiMessage | null) => {
    setMessages((list) => list.flatMap((m) => (m.id === id ? (change(m) ?? []) : [m])));
  }, []);

  /** Streams the thread's opening message, falling back to the stored one, then the canned greeting. */
  const streamInitial = useCallback(
    async (thread: string) => {
      const bubbleId = localId('initial');
      setMessages([{ id: bubbleId, role: 'assistant', content: '', created_at: nowIso(), loading: true }]);
      setStatus('streaming');
      let content: string;
      try {
        const result = await streamEndpoint(
          endpoints.chat.initialMessage,
          { params: { threadId: thread }, signal: signal() },
          { onText: (text) => patch(bubbleId, (m) => ({ ...m, content: m.content + text, loading: false })) },
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
      patch(bubbleId, (m) => ({ ...m, content, loading: false }));
      setStatus('ready');
    },
    [patch, condition, fallbackGreeting],
  );

  /** Loads history, progress and limits from the server and shows them; null if the thread is gone. */
  const syncFromServer = useCallback(async (thread: string) => {
    try {
      const reply = await api(endpoints.chat.messages, { params: { threadId: thread }, signal: signal() });
      const list = toUi(reply.messages);
      const serverProgress = toProgress(reply.progress);
      setMessages(list);
      setProgress(serverProgress);
      setLimits(reply.limits);
      return { list, progress: serverProgress, replying: reply.replying };
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 404) return null;
      throw failure;
    }
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
        setStatus('streaming');
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
      if (synced.list.length === 0 && !synced.progress.closed) await streamInitial(thread);
      else setStatus('ready');
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
        if (!alive()) return;
        // Not this participant's thread any more (another login, reset data): begin again.
        setThreadId(null);
        setMessages([]);
        setProgress(NO_PROGRESS);
        setStatus('idle');
      } catch (failure) {
        if (isAbort(failure) || !alive()) return;
        if (!stored.current?.messages.length) setError(initializeError(failure));
        setStatus('ready');
      }
    })();
  }, [experimentId, userId, showThread]);

  const start = useCallback(async () => {
    if (!experimentId || !userId) {
      setError(MISSING_PROPS_ERROR);
      return;
    }
    setError(null);
    setStatus('starting');
    let reply;
    try {
      reply = await api(endpoints.chat.initiate, { body: { experimentId }, signal: signal() });
    } catch (failure) {
      if (isAbort(failure) || !alive()) return;
      setError(startError(failure));
      setStatus('idle');
      return;
    }
    if (!alive()) return;
    setThreadId(reply.threadId);
    setProgress(toProgress(reply.progress));
    if (reply.limits) setLimits(reply.limits);
    if (!reply.messageCount && !reply.progress.closed) {
      await streamInitial(reply.threadId);
      return;
    }
    // The thread already had a conversation (local data was lost, or another device): show it.
    setStatus('restoring');
    try {
      await showThread(reply.threadId);
    } catch (failure) {
      if (isAbort(failure) || !alive()) return;
      setError(initializeError(failure));
      setStatus('ready');
    }
  }, [experimentId, userId, streamInitial, showThread]);

  const send = useCallback(async () => {
    const text = draft;
    if (!text.trim() || !threadId || status !== 'ready' || progress.closed) return;
    const roundsBefore = progress.rounds;
    const userMessage: UiMessage = { id: localId('user'), role: 'user', content: text, created_at: nowIso() };
    const bubbleId = localId('reply');
    const bubble: UiMessage = { id: bubbleId, role: 'assistant', content: '', created_at: nowIso(), loading: true };
    setMessages((list) => [...list, userMessage, bubble]);
    setDraft('');
    setError(null);
    setStatus('streaming');

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
      if (!answered) setDraft((c) => restoreDraft(c, sent));
      setStatus('ready');
    }

    let result;
    try {
      result = await streamEndpoint(
        endpoints.chat.sendMessage,
        { params: { threadId }, body: { message: text }, signal: signal() },
        { onText: (piece) => patch(bubbleId, (m) => ({ ...m, content: m.content + piece, loading: false })) },
      );
    } catch (failure) {
      if (isAbort(failure) || !alive()) return;
      if (failure instanceof StreamInterruptedError) {
        // The server had the message; its reply may be stored in full. Show what the server has.
        patch(bubbleId, (m) => (m.content ? { ...m, loading: false } : null));
        setError(sendError(failure));
        await reconcile(threadId, text);
      } else if (failure instanceof ApiError && failure.code === 'CHAT_CLOSED') {
        // The chat has ended (a limit, or completion): the page says so and Proceed opens.
        setMessages((list) => list.filter((m) => m.id !== userMessage.id && m.id !== bubbleId));
        await reconcile(threadId, text);
      } else {
        // Refused or never arrived (e.g. a reply still in progress, too long, offline): nothing was stored.
        setMessages((list) => list.filter((m) => m.id !== userMessage.id && m.id !== bubbleId));
        setDraft((current) => restoreDraft(current, text));
        setError(sendError(failure));
        setStatus('ready');
      }
      return;
    }
    if (!alive()) return;
    if (result.error || !result.done) {
      // The message reached the server, but the reply failed or was cut off.
      patch(bubbleId, (m) => (m.content ? { ...m, loading: false } : null));
      setError(sendError(new Error(result.error ?? 'The connection was interrupted.')));
      await reconcile(threadId, text);
      return;
    }
    if (!result.text.trim()) {
      // The model answered nothing: '[No response from assistant]'; the message can be sent again.
      patch(bubbleId, (m) => ({ ...m, content: '', loading: false, status: 'empty' }));
      await reconcile(threadId, text);
      return;
    }
    patch(bubbleId, (m) => ({ ...m, content: result.text, loading: false }));
    setProgress((p) => addRound(p, text, rule));
    setStatus('ready');
    // The server counts rounds and points and knows the limits; take its numbers (the local ones are the same rules).
    api(endpoints.chat.messages, { params: { threadId }, signal: signal() })
      .then((reply) => {
        if (!alive()) return;
        setProgress(toProgress(reply.progress));
        setLimits(reply.limits);
      })
      .catch(() => undefined);
  }, [draft, threadId, status, progress.rounds, progress.closed, patch, followThread, rule]);

  return {
    status,
    threadId,
    messages,
    progress,
    limits,
    error,
    draft,
    setDraft,
    start,
    send,
    dismissError: () => setError(null),
  };
}

/** The cached chat, or the server's thread with nothing cached (the messages are then read from the server). */
function withServerThread(cached: StoredChat, serverThreadId: string | null): StoredChat {
  if (!serverThreadId || cached.threadId === serverThreadId) return cached;
  return { threadId: serverThreadId, messages: [], progress: NO_PROGRESS };
}

/** The first assistant message stored for the thread (spec: the initial-message fallback). */
async function storedOpening(threadId: string): Promise<string> {
  const reply = await api(endpoints.chat.messages, { params: { threadId } });
  return reply.messages.find((m) => m.role === 'assistant')?.content ?? '';
}

/** Puts unsent text back in the box without losing anything typed since. */
function restoreDraft(current: string, unsent: string): string {
  return current.trim() ? `${unsent}\n${current}` : unsent;
}

function addRound(p: Progress, text: string, rule: ChatRule): Progress {
  const rounds = p.rounds + 1;
  const chars = p.chars + text.trim().length;
  const points = chatPoints(rounds, chars);
  return { rounds, chars, points, complete: isChatComplete(points, rounds, rule), closed: p.closed };
}

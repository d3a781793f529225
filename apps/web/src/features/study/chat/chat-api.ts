import { endpoints, type ChatMessage, type ChatProgress, type InitiateReply } from '@studychat/contracts/web';
import { api, ApiError } from '../../../lib/api';
import { streamEndpoint, type StreamResult } from '../../../lib/sse';
import type { Progress, UiMessage } from './chat-types';

// The chat's calls (spec section 7): the page's hook (useChat.ts) runs them and turns their answers into actions.

export function toUi(messages: ChatMessage[]): UiMessage[] {
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

export function toProgress(p: ChatProgress): Progress {
  return { rounds: p.rounds, chars: p.chars, points: p.points, complete: p.complete, closed: p.closed ?? null };
}

/** Starts the participant's chat (or finds the thread they have). */
export function initiate(experimentId: string, signal?: AbortSignal): Promise<InitiateReply> {
  return api(endpoints.chat.initiate, { body: { experimentId }, signal });
}

/** The thread as the server has it; null when it is not (or no longer) this participant's. */
export async function readThread(threadId: string, signal?: AbortSignal) {
  try {
    const reply = await api(endpoints.chat.messages, { params: { threadId }, signal });
    return {
      messages: toUi(reply.messages),
      progress: toProgress(reply.progress),
      limits: reply.limits,
      replying: reply.replying,
    };
  } catch (failure) {
    if (failure instanceof ApiError && failure.status === 404) return null;
    throw failure;
  }
}

/** Streams the thread's opening message. */
export function streamOpening(
  threadId: string,
  onText: (text: string) => void,
  signal?: AbortSignal,
  onBusy?: (message: string) => void,
): Promise<StreamResult> {
  return streamEndpoint(endpoints.chat.initialMessage, { params: { threadId }, signal }, { onText, onBusy });
}

/** Sends the participant's message and streams the reply. */
export function sendMessage(
  threadId: string,
  message: string,
  onText: (text: string) => void,
  signal?: AbortSignal,
  onBusy?: (message: string) => void,
): Promise<StreamResult> {
  return streamEndpoint(
    endpoints.chat.sendMessage,
    { params: { threadId }, body: { message }, signal },
    { onText, onBusy },
  );
}

/** The first assistant message stored for the thread (spec: the initial-message fallback). */
export async function storedOpening(threadId: string): Promise<string> {
  const reply = await api(endpoints.chat.messages, { params: { threadId } });
  return reply.messages.find((m) => m.role === 'assistant')?.content ?? '';
}

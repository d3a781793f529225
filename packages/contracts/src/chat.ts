import { z } from 'zod';
import { defineRoute } from './route.js';
import { Id, Timestamp } from './common.js';
import { CHAT_MESSAGE_MAX_LENGTH } from './constants.js';
import { FreeText } from './text.js';

export const ChatProgress = z.object({
  rounds: z.number().int(),
  /** Trimmed characters the participant has sent. */
  chars: z.number().int(),
  points: z.number(),
  complete: z.boolean(),
});
export type ChatProgress = z.infer<typeof ChatProgress>;

export const ChatMessage = z.object({
  id: Id,
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  created_at: Timestamp,
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const InitiateBody = z.object({ experimentId: Id });
export const InitiateReply = z.object({ threadId: Id, progress: ChatProgress });
export type InitiateReply = z.infer<typeof InitiateReply>;
export const ThreadParams = z.object({ threadId: Id });
export const SendMessageBody = z.object({
  message: FreeText.max(
    CHAT_MESSAGE_MAX_LENGTH,
    `Messages can be at most ${CHAT_MESSAGE_MAX_LENGTH} characters long`,
  ).refine((m) => m.trim().length > 0, 'Message cannot be empty'),
});
export const ThreadMessagesReply = z.object({ threadId: Id, messages: z.array(ChatMessage), progress: ChatProgress });
export type ThreadMessagesReply = z.infer<typeof ThreadMessagesReply>;

/** One `data:` line of the chat event stream; the stream ends with `data: [DONE]`. */
export const ChatStreamEvent = z.union([z.object({ text: z.string() }), z.object({ error: z.string() })]);
export type ChatStreamEvent = z.infer<typeof ChatStreamEvent>;

export const chatRoutes = {
  initiate: defineRoute({ method: 'POST', path: '/api/chat/initiate', body: InitiateBody, reply: InitiateReply }),
  /** Event stream. */
  initialMessage: defineRoute({
    method: 'GET',
    path: '/api/chat/threads/:threadId/initial-message',
    params: ThreadParams,
  }),
  /** Event stream. */
  sendMessage: defineRoute({
    method: 'POST',
    path: '/api/chat/threads/:threadId/messages',
    params: ThreadParams,
    body: SendMessageBody,
  }),
  messages: defineRoute({
    method: 'GET',
    path: '/api/chat/threads/:threadId/messages',
    params: ThreadParams,
    reply: ThreadMessagesReply,
  }),
};

import { z } from 'zod';
import { defineRoute } from './route.js';
import { Id, Timestamp } from './common.js';
import { CHAT_MESSAGE_MAX_LENGTH, PASTE_LENGTH_MAX } from './constants.js';
import { FreeText } from './text.js';
import { CHAT_CLOSE_REASONS } from './chat-limits.js';

/** The chat ended for the participant (a limit, or their completion); null while it is open. */
export const ChatClosure = z.object({ reason: z.enum(CHAT_CLOSE_REASONS) });
export type ChatClosure = z.infer<typeof ChatClosure>;

export const ChatProgress = z.object({
  rounds: z.number().int(),
  /** Trimmed characters the participant has sent. */
  chars: z.number().int(),
  points: z.number(),
  complete: z.boolean(),
  /**
   * Set when the chat ended by a limit (messages, tokens, budget) or because the participant's
   * completion is recorded. A chat ended by a limit lets the participant proceed as a complete one
   * does (`chatAllowsProceed`): the model never blocks the journey.
   */
  closed: ChatClosure.nullable(),
});
export type ChatProgress = z.infer<typeof ChatProgress>;

/** The limits the chat page needs to show: the message length counter and how many messages are left. */
export const ChatLimitsView = z.object({
  maxMessageChars: z.number().int(),
  messagesLeft: z.number().int(),
});
export type ChatLimitsView = z.infer<typeof ChatLimitsView>;

/**
 * complete; streaming (being written now); interrupted (the server stopped part way); error (the model
 * failed; any text that arrived is kept); empty (the model answered nothing: shown as '[No response from
 * assistant]').
 */
export const MESSAGE_STATUSES = ['complete', 'streaming', 'interrupted', 'error', 'empty'] as const;
export const MessageStatus = z.enum(MESSAGE_STATUSES);
export type MessageStatus = z.infer<typeof MessageStatus>;

export const ChatMessage = z.object({
  id: Id,
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  created_at: Timestamp,
  status: MessageStatus,
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const InitiateBody = z.object({ experimentId: Id });
export const InitiateReply = z.object({
  threadId: Id,
  progress: ChatProgress,
  limits: ChatLimitsView,
  /** Messages the participant would see in the thread: 0 for a new one, which starts with the greeting. */
  messageCount: z.number().int(),
});
export type InitiateReply = z.infer<typeof InitiateReply>;
export const ThreadParams = z.object({ threadId: Id });
export const SendMessageBody = z.object({
  message: FreeText.max(
    CHAT_MESSAGE_MAX_LENGTH,
    `Messages can be at most ${CHAT_MESSAGE_MAX_LENGTH} characters long`,
  ).refine((m) => m.trim().length > 0, 'Message cannot be empty'),
});
export const ThreadMessagesReply = z.object({
  threadId: Id,
  messages: z.array(ChatMessage),
  progress: ChatProgress,
  limits: ChatLimitsView,
  /** A reply is being written right now (perhaps for a request from a page the participant left). */
  replying: z.boolean(),
});
export type ThreadMessagesReply = z.infer<typeof ThreadMessagesReply>;

/** A paste the chat box blocked: its length only, never the text (docs/decisions/0028). */
export const PasteBlockedBody = z
  .object({
    experimentId: Id,
    length: z.number().int().min(0).max(PASTE_LENGTH_MAX),
  })
  .strict();
/** `recorded: false` once the participant's logged pastes reached their cap. */
export const PasteBlockedReply = z.object({ recorded: z.boolean() });

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
  /** The caller's blocked paste in the chat box (participants at the chat; 409 elsewhere). */
  pasteBlocked: defineRoute({
    method: 'POST',
    path: '/api/chat/paste-blocked',
    body: PasteBlockedBody,
    reply: PasteBlockedReply,
  }),
};

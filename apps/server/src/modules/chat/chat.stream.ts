import { chatStreamEvent, type ChatStreamProgress } from '@studychat/contracts';
import type { FastifyReply } from 'fastify';
import { openEventStream, type Ticker } from '../../lib/event-stream.js';

/** Where a reply's events go: the browser's event stream, or nowhere once the browser has left. */
export interface ReplySink {
  text(delta: string): void;
  error(message: string): void;
  /** The reply waits its turn at the provider: the page says the assistant is busy (docs/decisions/0076). */
  busy(message: string): void;
  /** The progress and limits the stored reply left the chat at (contracts' chat-stream.ts). */
  progress(after: ChatStreamProgress): void;
  /** Writes `data: [DONE]` and ends the response. */
  done(): void;
}

export interface StreamOptions {
  /** A comment line (`: keep-alive`) this often, so proxies and the server's idle time-out keep the stream. */
  heartbeatMs: number;
  /** A stream with no event for this long is ended with an error event and [DONE]. */
  idleMs: number;
  ticker?: Ticker;
}

export const STREAM_IDLE_MESSAGE = 'The assistant is taking too long to answer. Please send your message again.';

/** The chat's event stream (spec section 7), written with the contracts' event encoding (chat-stream.ts). */
export function openChatStream(reply: FastifyReply, options: StreamOptions): ReplySink {
  const stream = openEventStream(reply, {
    heartbeatMs: options.heartbeatMs,
    idleMs: options.idleMs,
    ...(options.ticker ? { ticker: options.ticker } : {}),
    onIdle: () => {
      stream.write(chatStreamEvent({ error: STREAM_IDLE_MESSAGE }));
      stream.end(chatStreamEvent('done'));
    },
  });
  return {
    text: (delta) => stream.write(chatStreamEvent({ text: delta })),
    error: (message) => stream.write(chatStreamEvent({ error: message })),
    busy: (message) => stream.write(chatStreamEvent({ busy: message })),
    progress: (after) => stream.write(chatStreamEvent(after)),
    done: () => stream.end(chatStreamEvent('done')),
  };
}

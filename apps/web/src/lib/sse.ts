// Reads the chat event streams (spec section 7): `data:` lines holding JSON `{text}` or `{error}`,
// ending with `data: [DONE]`. fetch + a stream reader rather than EventSource, which can neither
// POST a body nor send the Bearer header.
import {
  EventStreamParser,
  readChatStreamEvent,
  type ChatStreamProgress,
  type Endpoint,
  type RouteDef,
} from '@studychat/contracts/web';
import { sendRequest, type RequestInput } from './api';

/** One parsed event of a chat stream. */
export type SseEvent =
  | { type: 'text'; text: string }
  | { type: 'error'; error: string }
  | { type: 'busy'; message: string }
  | { type: 'progress'; after: ChatStreamProgress }
  | { type: 'done' };

/**
 * Splits decoded text into the chat's events, with the event-stream parser the server reads its providers with
 * (@studychat/contracts). Chunks may end anywhere (mid-line, mid-event); the rest is kept until the next push.
 */
export class SseParser {
  private pending: SseEvent[] = [];
  private readonly parser = new EventStreamParser(({ data }) => {
    const event = parsePayload(data);
    if (event) this.pending.push(event);
  });

  push(chunk: string): SseEvent[] {
    this.parser.push(chunk);
    return this.taken();
  }

  /** Ends the input: a last event without its closing blank line still counts (our server chose the end). */
  end(): SseEvent[] {
    this.parser.end({ dispatchCutOff: true });
    return this.taken();
  }

  private taken(): SseEvent[] {
    const events = this.pending;
    this.pending = [];
    return events;
  }
}

/** An event's data as the chat's stream defines it (contracts' chat-stream.ts); null for anything else. */
function parsePayload(payload: string): SseEvent | null {
  const event = readChatStreamEvent(payload);
  if (event === null) return null;
  if (event === 'done') return { type: 'done' };
  if ('error' in event) return { type: 'error', error: event.error };
  if ('text' in event) return { type: 'text', text: event.text };
  if ('busy' in event) return { type: 'busy', message: event.busy };
  return { type: 'progress', after: event };
}

export interface StreamHandlers {
  /** Each piece of text as it arrives. */
  onText?: (text: string) => void;
  /** The reply waits its turn at the AI provider: what to tell the participant meanwhile. */
  onBusy?: (message: string) => void;
}

export interface StreamResult {
  /** All text received, joined. */
  text: string;
  /** The first `{error}` event's message, if any. */
  error: string | null;
  /** Whether `[DONE]` arrived (false: the stream ended early). */
  done: boolean;
  /** Where the stored reply left the chat (sent before [DONE]); null when the server sent none. */
  after: ChatStreamProgress | null;
}

/**
 * Opens an event-stream endpoint with the Bearer token and reads it to the end (or `[DONE]`).
 * Throws ApiError when the server answers with an error status or cannot be reached, and
 * `StreamInterruptedError` when the connection drops after the stream began; an AbortSignal aborts
 * with the usual AbortError.
 */
export async function streamEndpoint<R extends RouteDef>(
  route: Endpoint<R>,
  input: RequestInput<R>,
  handlers: StreamHandlers = {},
): Promise<StreamResult> {
  const res = await sendRequest(route, input, 'text/event-stream');
  if (!res.body) throw new StreamInterruptedError('The server sent no reply.', '');
  return readStream(res.body, handlers, input.signal);
}

/** The connection dropped after some of the stream arrived; `text` is what came before. */
export class StreamInterruptedError extends Error {
  constructor(
    message: string,
    readonly text: string,
  ) {
    super(message);
    this.name = 'StreamInterruptedError';
  }
}

/** Reads an event stream body to the end; exported for tests with crafted streams. */
export async function readStream(
  body: ReadableStream<Uint8Array>,
  handlers: StreamHandlers = {},
  signal?: AbortSignal,
): Promise<StreamResult> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  const result: StreamResult = { text: '', error: null, done: false, after: null };
  const onAbort = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', onAbort);

  const apply = (events: SseEvent[]): boolean => {
    for (const event of events) {
      if (event.type === 'done') {
        result.done = true;
        return true;
      }
      if (event.type === 'error') {
        result.error ??= event.error;
      } else if (event.type === 'busy') {
        handlers.onBusy?.(event.message);
      } else if (event.type === 'progress') {
        result.after = event.after;
      } else if (event.text) {
        result.text += event.text;
        handlers.onText?.(event.text);
      }
    }
    return false;
  };

  try {
    for (;;) {
      signal?.throwIfAborted();
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (isAbort(error) || signal?.aborted) throw abortError(signal);
        throw new StreamInterruptedError('The connection was interrupted.', result.text);
      }
      signal?.throwIfAborted();
      if (chunk.done) {
        // `stream: true` kept any split UTF-8 sequence back; flush it now.
        apply(parser.push(decoder.decode()));
        apply(parser.end());
        return result;
      }
      if (apply(parser.push(decoder.decode(chunk.value, { stream: true })))) {
        void reader.cancel().catch(() => undefined);
        return result;
      }
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

function abortError(signal: AbortSignal | undefined): unknown {
  return signal?.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError');
}

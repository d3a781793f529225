// Reads the chat event streams (spec section 7): `data:` lines holding JSON `{text}` or `{error}`,
// ending with `data: [DONE]`. fetch + a stream reader rather than EventSource, which can neither
// POST a body nor send the Bearer header.
import type { Endpoint, RouteDef } from '@studychat/contracts/web';
import { sendRequest, type RequestInput } from './api';

/** One parsed event of a chat stream. */
export type SseEvent = { type: 'text'; text: string } | { type: 'error'; error: string } | { type: 'done' };

/**
 * Splits decoded text into events. Chunks may end anywhere (mid-line, mid-event); the rest is kept
 * until the next push. Lines end with LF, CRLF or CR; an event ends at a blank line.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];

  push(chunk: string): SseEvent[] {
    this.buffer += chunk;
    const events: SseEvent[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) break;
      // A CR at the very end may be the first half of a CRLF split across chunks: wait for more.
      if (match[0] === '\r' && match.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  /** Ends the input: a last event without its closing blank line still counts. */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    if (this.buffer) {
      const event = this.line(this.buffer.replace(/\r$/, ''));
      this.buffer = '';
      if (event) events.push(event);
    }
    const last = this.dispatch();
    if (last) events.push(last);
    return events;
  }

  private line(line: string): SseEvent | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null; // comment / keep-alive
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    return null;
  }

  private dispatch(): SseEvent | null {
    if (this.data.length === 0) return null;
    const payload = this.data.join('\n');
    this.data = [];
    return parsePayload(payload);
  }
}

function parsePayload(payload: string): SseEvent | null {
  if (payload.trim() === '[DONE]') return { type: 'done' };
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return null; // not ours: ignore rather than break the stream
  }
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  if (typeof record.error === 'string') return { type: 'error', error: record.error };
  if (typeof record.text === 'string') return { type: 'text', text: record.text };
  return null;
}

export interface StreamHandlers {
  /** Each piece of text as it arrives. */
  onText?: (text: string) => void;
}

export interface StreamResult {
  /** All text received, joined. */
  text: string;
  /** The first `{error}` event's message, if any. */
  error: string | null;
  /** Whether `[DONE]` arrived (false: the stream ended early). */
  done: boolean;
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
  const result: StreamResult = { text: '', error: null, done: false };
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

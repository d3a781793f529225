// The providers' streams read with our own server-sent-events parser (decision 0070). The SDKs still build
// the request, send it and turn an error status into their APIError; only the 200 response's body is read
// here. Their own stream readers (three nested async generators, a byte line decoder and class private
// fields per event) were the largest part of the server's CPU per streamed token.

/** One server-sent event: its `event` field (null when the event had none) and its data lines joined by "\n". */
export interface SseEvent {
  event: string | null;
  data: string;
}

const LF = '\n';
const CR = '\r';

/**
 * The event-stream format (WHATWG HTML, "Server-sent events"): lines end with CRLF, LF or CR; `field: value`
 * (one space after the colon dropped); a line starting with a colon is a comment; a blank line ends an event.
 * Bytes go in as they arrive; each complete event is handed to `onEvent` synchronously. An event is
 * dispatched when it has an `event` or a `data` field, as both SDKs did; `id` and `retry` are not used by
 * the providers' streams and are ignored. Text after the last blank line is dropped at the end, as the
 * format says.
 */
export class SseParser {
  private readonly decoder = new TextDecoder();
  private buffer = '';
  private event: string | null = null;
  private data: string | null = null;

  constructor(private readonly onEvent: (event: SseEvent) => void) {}

  push(bytes: Uint8Array): void {
    this.feed(this.decoder.decode(bytes, { stream: true }), false);
  }

  /** The stream ended: what is left in the decoder is read, and a CR at the very end ends its line. */
  end(): void {
    this.feed(this.decoder.decode(), true);
    this.buffer = '';
    this.event = null;
    this.data = null;
  }

  private feed(text: string, final: boolean): void {
    const buffer = this.buffer === '' ? text : this.buffer + text;
    const length = buffer.length;
    let start = 0;
    // Where the next CR is (-1: none left in the buffer); looked up again only once passed.
    let cr = buffer.indexOf(CR);
    while (start < length) {
      if (cr !== -1 && cr < start) cr = buffer.indexOf(CR, start);
      const lf = buffer.indexOf(LF, start);
      let end: number;
      let next: number;
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        // CRLF, or a CR alone: at the end of what has arrived, a LF may still follow in the next bytes.
        if (cr + 1 < length) {
          end = cr;
          next = buffer.charCodeAt(cr + 1) === 10 ? cr + 2 : cr + 1;
        } else if (final) {
          end = cr;
          next = cr + 1;
        } else break;
      } else if (lf !== -1) {
        end = lf;
        next = lf + 1;
      } else break;
      this.line(buffer.slice(start, end));
      start = next;
    }
    this.buffer = start === 0 ? buffer : buffer.slice(start);
  }

  private line(line: string): void {
    if (line === '') {
      const { event, data } = this;
      this.event = null;
      this.data = null;
      if (event !== null || data !== null) this.onEvent({ event, data: data ?? '' });
      return;
    }
    if (line.charCodeAt(0) === 58 /* ':' a comment */) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.charCodeAt(colon + 1) === 32 ? line.slice(colon + 2) : line.slice(colon + 1);
    if (field === 'data') this.data = this.data === null ? value : `${this.data}\n${value}`;
    else if (field === 'event') this.event = value;
  }
}

/**
 * Reads a streamed response's body to its end, handing each event to `onEvent` as it completes. An error
 * thrown by `onEvent` (or by the body: an abort, a connection cut off) cancels the body, which releases the
 * connection, and is thrown on.
 */
export async function readSse(response: Response, onEvent: (event: SseEvent) => void): Promise<void> {
  const body = response.body;
  if (!body) throw new Error('The provider answered without a body');
  const parser = new SseParser(onEvent);
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(value);
    }
    parser.end();
  } catch (error) {
    await reader.cancel(error).catch(() => undefined);
    throw error;
  } finally {
    reader.releaseLock();
  }
}

// The event-stream format (WHATWG HTML, "Server-sent events"), read the same way on both sides: the server reads
// the model providers' streams with it (apps/server/src/llm/sse.ts, decision 0070) and the browser reads the
// chat's own stream (apps/web/src/lib/sse.ts).

/** One event: its `event` field (null when it had none) and its data lines joined by "\n". */
export interface StreamEvent {
  event: string | null;
  data: string;
}

const LF = '\n';
const CR = '\r';

/**
 * Lines end with CRLF, LF or CR; `field: value` (one space after the colon dropped); a line starting with a colon
 * is a comment; a blank line ends an event. Decoded text goes in as it arrives, cut anywhere (a CRLF split across
 * pushes is still one line end); each complete event is handed to `onEvent` synchronously. An event is
 * dispatched when it has an `event` or a `data` field; `id`, `retry` and unknown fields are ignored.
 */
export class EventStreamParser {
  private buffer = '';
  private event: string | null = null;
  private data: string | null = null;

  constructor(private readonly onEvent: (event: StreamEvent) => void) {}

  push(text: string): void {
    this.feed(text, false);
  }

  /**
   * The stream ended: a CR at the very end ends its line. The format drops an event cut off before its blank
   * line (a provider's stream broken off); with `dispatchCutOff` the last line and event still count (the
   * browser reading our own stream, whose end the server chose).
   */
  end(options: { dispatchCutOff?: boolean } = {}): void {
    this.feed('', true);
    if (options.dispatchCutOff) {
      if (this.buffer !== '') this.line(this.buffer);
      this.line('');
    }
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
        // CRLF, or a CR alone: at the end of what has arrived, a LF may still follow in the next text.
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

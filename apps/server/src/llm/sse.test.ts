import { describe, expect, it } from 'vitest';
import { readSse, type SseEvent } from './sse.js';

const bytes = (text: string) => new TextEncoder().encode(text);

/** A response whose body delivers `text` in the given pieces (byte offsets). */
function cutResponse(text: string, cuts: number[] = []): Response {
  const all = bytes(text);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const cut of [...cuts, all.length]) {
    pieces.push(all.subarray(from, cut));
    from = cut;
  }
  return new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const piece of pieces) controller.enqueue(piece);
        controller.close();
      },
    }),
  );
}

/** Reads `text` delivered in the given pieces, returning the events in order. */
async function parse(text: string, cuts: number[] = []): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  await readSse(cutResponse(text, cuts), (e) => events.push(e));
  return events;
}

const ANTHROPIC = [
  'event: message_start',
  'data: {"type":"message_start"}',
  '',
  'event: ping',
  'data: {"type": "ping"}',
  '',
  'event: content_block_delta',
  'data: {"type":"content_block_delta","delta":{"type":"text_delta","text":"Grüße 👋"}}',
  '',
  '',
].join('\n');

const ANTHROPIC_EVENTS: SseEvent[] = [
  { event: 'message_start', data: '{"type":"message_start"}' },
  { event: 'ping', data: '{"type": "ping"}' },
  {
    event: 'content_block_delta',
    data: '{"type":"content_block_delta","delta":{"type":"text_delta","text":"Grüße 👋"}}',
  },
];

describe('readSse: the event-stream format', () => {
  it("reads a provider's events: the event name, the data, one event per blank line", async () => {
    expect(await parse(ANTHROPIC)).toEqual(ANTHROPIC_EVENTS);
    expect(await parse('data: {"a":1}\n\ndata: [DONE]\n\n')).toEqual([
      { event: null, data: '{"a":1}' },
      { event: null, data: '[DONE]' },
    ]);
  });

  it('gives the same events however the bytes are cut, inside a line, a CRLF or a character', async () => {
    const all = bytes(ANTHROPIC).length;
    for (let cut = 1; cut < all; cut += 1) expect(await parse(ANTHROPIC, [cut])).toEqual(ANTHROPIC_EVENTS);
    // Every byte on its own.
    expect(
      await parse(
        ANTHROPIC,
        Array.from({ length: all - 1 }, (_, i) => i + 1),
      ),
    ).toEqual(ANTHROPIC_EVENTS);
    const crlf = ANTHROPIC.replaceAll('\n', '\r\n');
    const crlfLength = bytes(crlf).length;
    for (let cut = 1; cut < crlfLength; cut += 1) expect(await parse(crlf, [cut])).toEqual(ANTHROPIC_EVENTS);
  });

  it('ends lines at CRLF, LF or a CR alone, even a CR as the very last byte', async () => {
    expect(await parse(ANTHROPIC.replaceAll('\n', '\r'))).toEqual(ANTHROPIC_EVENTS);
    expect(await parse('data: x\r\n\r\ndata: y\n\rdata: z\r\r')).toEqual([
      { event: null, data: 'x' },
      { event: null, data: 'y' },
      { event: null, data: 'z' },
    ]);
  });

  it('joins data lines with a newline, drops one space after the colon only, and skips comments', async () => {
    expect(await parse(': keep-alive\ndata:first\ndata:  second\ndata\nevent:e\n\n')).toEqual([
      { event: 'e', data: 'first\n second\n' },
    ]);
  });

  it('dispatches an event with a name and no data, as the SDKs did, and nothing for a blank line alone', async () => {
    expect(await parse('\n\nevent: ping\n\n\n')).toEqual([{ event: 'ping', data: '' }]);
  });

  it('ignores the id and retry fields and unknown ones', async () => {
    expect(await parse('id: 7\nretry: 100\nfoo: bar\ndata: x\n\n')).toEqual([{ event: null, data: 'x' }]);
  });

  it('drops an event the stream cut off before its blank line', async () => {
    expect(await parse('data: complete\n\ndata: {"cut off')).toEqual([{ event: null, data: 'complete' }]);
    expect(await parse('data: complete\n\ndata: cut off\n')).toEqual([{ event: null, data: 'complete' }]);
  });
});

describe('readSse', () => {
  const response = (chunks: string[]) =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(bytes(chunk));
          controller.close();
        },
      }),
    );

  it('reads the body to its end, handing each event over as it completes', async () => {
    const events: SseEvent[] = [];
    await readSse(response(['data: 1\n', '\nda', 'ta: 2\n\n']), (e) => events.push(e));
    expect(events).toEqual([
      { event: null, data: '1' },
      { event: null, data: '2' },
    ]);
  });

  it('stops at an error thrown by the handler, cancels the body and throws it on', async () => {
    let cancelled: unknown;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(bytes('data: x\n\n'));
      },
      cancel(reason) {
        cancelled = reason;
      },
    });
    const failure = new Error('an error event');
    let seen = 0;
    const read = readSse(new Response(body), () => {
      seen += 1;
      if (seen === 3) throw failure;
    });
    await expect(read).rejects.toBe(failure);
    expect(seen).toBe(3);
    expect(cancelled).toBe(failure);
  });

  it("throws the body's own error (a connection cut off) after the events that arrived", async () => {
    const events: SseEvent[] = [];
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls += 1;
        if (pulls === 1) controller.enqueue(bytes('data: kept\n\n'));
        else controller.error(new TypeError('terminated'));
      },
    });
    await expect(readSse(new Response(body), (e) => events.push(e))).rejects.toThrow('terminated');
    expect(events).toEqual([{ event: null, data: 'kept' }]);
  });
});

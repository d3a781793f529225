import { endpoints } from '@studychat/contracts/web';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setUnauthorizedHandler } from './api';
import { getToken, setToken } from './session';
import { readStream, SseParser, StreamInterruptedError, streamEndpoint } from './sse';

const THREAD = '00000000-0000-4000-8000-000000000001';

/** A body that yields exactly the given byte chunks. */
function bytesStream(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[i++];
      if (chunk) controller.enqueue(chunk);
      else controller.close();
    },
  });
}

function textStream(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return bytesStream(chunks.map((c) => encoder.encode(c)));
}

/** Splits the encoded text into pieces of `size` bytes, cutting through lines and characters. */
function everyNBytes(text: string, size: number): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.slice(i, i + size));
  return out;
}

const data = (value: unknown) => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;

afterEach(() => vi.unstubAllGlobals());

describe('SseParser', () => {
  it('parses text, error and done events', () => {
    const parser = new SseParser();
    const events = parser.push(data({ text: 'Hi' }) + data({ error: 'Model down' }) + data('[DONE]'));
    expect(events).toEqual([{ type: 'text', text: 'Hi' }, { type: 'error', error: 'Model down' }, { type: 'done' }]);
  });

  it('keeps a line split across chunks until it is complete', () => {
    const parser = new SseParser();
    expect(parser.push('da')).toEqual([]);
    expect(parser.push('ta: {"te')).toEqual([]);
    expect(parser.push('xt":"a b"}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ type: 'text', text: 'a b' }]);
  });

  it('accepts CRLF and CR line endings, also with CRLF split between chunks', () => {
    const parser = new SseParser();
    expect(parser.push('data: {"text":"one"}\r')).toEqual([]);
    expect(parser.push('\n\r\n')).toEqual([{ type: 'text', text: 'one' }]);
    expect(parser.push('data: {"text":"two"}\r\rda')).toEqual([{ type: 'text', text: 'two' }]);
  });

  it('ignores comments, other fields and payloads that are not ours', () => {
    const parser = new SseParser();
    const events = parser.push(
      ': keep-alive\n\nevent: message\nid: 7\ndata: {"text":"x"}\n\n' + data('not json') + data({ other: 1 }) + data(5),
    );
    expect(events).toEqual([{ type: 'text', text: 'x' }]);
  });

  it('joins multi-line data and keeps text that holds newlines and spaces', () => {
    const parser = new SseParser();
    const events = parser.push('data: {"text":\ndata: "  line1\\nline2 "}\n\n');
    expect(events).toEqual([{ type: 'text', text: '  line1\nline2 ' }]);
  });

  it('treats data without a space after the colon the same', () => {
    expect(new SseParser().push('data:[DONE]\n\n')).toEqual([{ type: 'done' }]);
  });

  it('delivers a last event that lacks its closing blank line at the end', () => {
    const parser = new SseParser();
    expect(parser.push('data: {"text":"tail"}')).toEqual([]);
    expect(parser.end()).toEqual([{ type: 'text', text: 'tail' }]);
  });
});

describe('readStream', () => {
  const body = data({ text: 'Grüße, ' }) + data({ text: 'naïve 👋 café' }) + data('[DONE]');

  it.each([1, 2, 3, 5, 7])('reassembles text cut every %i bytes, through lines and UTF-8 characters', async (size) => {
    const pieces: string[] = [];
    const result = await readStream(bytesStream(everyNBytes(body, size)), { onText: (t) => pieces.push(t) });
    expect(result).toEqual({ text: 'Grüße, naïve 👋 café', error: null, done: true, after: null });
    expect(pieces).toEqual(['Grüße, ', 'naïve 👋 café']);
  });

  it('reports an error event and still reads to [DONE]', async () => {
    const result = await readStream(
      textStream([data({ text: 'part' }), data({ error: 'Model failed' }), data('[DONE]')]),
    );
    expect(result).toEqual({ text: 'part', error: 'Model failed', done: true, after: null });
  });

  it('tells the page while the reply waits its turn (busy), then reads the reply', async () => {
    const onBusy = vi.fn();
    const result = await readStream(
      textStream([data({ busy: 'The assistant is busy.' }), data({ text: 'Hi' }), data('[DONE]')]),
      { onBusy },
    );
    expect(onBusy).toHaveBeenCalledWith('The assistant is busy.');
    expect(result).toEqual({ text: 'Hi', error: null, done: true, after: null });
  });

  it('stops at [DONE] and ignores anything after it', async () => {
    const onText = vi.fn();
    const result = await readStream(textStream([data({ text: 'a' }) + data('[DONE]') + data({ text: 'late' })]), {
      onText,
    });
    expect(result.text).toBe('a');
    expect(onText).toHaveBeenCalledTimes(1);
  });

  it('says when the stream ended without [DONE]', async () => {
    const result = await readStream(textStream([data({ text: 'cut' })]));
    expect(result).toEqual({ text: 'cut', error: null, done: false, after: null });
  });

  it('turns a dropped connection into StreamInterruptedError carrying the text so far', async () => {
    let sent = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(new TextEncoder().encode(data({ text: 'so far' })));
        } else controller.error(new TypeError('network error'));
      },
    });
    const error = await readStream(stream).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamInterruptedError);
    expect(error).toMatchObject({ text: 'so far' });
  });

  it('aborts with an AbortError when the signal fires mid-stream', async () => {
    const controller = new AbortController();
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(data({ text: 'first' })));
      },
    });
    const onText = vi.fn(() => controller.abort());
    const error = await readStream(stream, { onText }, controller.signal).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(onText).toHaveBeenCalledWith('first');
  });
});

describe('streamEndpoint', () => {
  it('POSTs the JSON body with the Bearer token to the filled path and streams the reply', async () => {
    setToken('tok-1');
    const fetchMock = vi.fn(() =>
      Promise.resolve(new Response(textStream([data({ text: 'Hello' }), data('[DONE]')]), { status: 200 })),
    );
    vi.stubGlobal('fetch', fetchMock);
    const result = await streamEndpoint(endpoints.chat.sendMessage, {
      params: { threadId: THREAD },
      body: { message: 'Hi there' },
    });
    expect(result).toEqual({ text: 'Hello', error: null, done: true, after: null });
    const [url, init] = (fetchMock.mock.calls as unknown as [string, RequestInit][])[0] ?? [];
    expect(url).toBe(`/api/chat/threads/${THREAD}/messages`);
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"message":"Hi there"}');
    const headers = init?.headers as Record<string, string>;
    expect(headers.authorization).toBe('Bearer tok-1');
    expect(headers['content-type']).toBe('application/json');
  });

  it('sends GET without a body', async () => {
    const fetchMock = vi.fn(() => Promise.resolve(new Response(textStream([data('[DONE]')]), { status: 200 })));
    vi.stubGlobal('fetch', fetchMock);
    await streamEndpoint(endpoints.chat.initialMessage, { params: { threadId: THREAD } });
    const [url, init] = (fetchMock.mock.calls as unknown as [string, RequestInit][])[0] ?? [];
    expect(url).toBe(`/api/chat/threads/${THREAD}/initial-message`);
    expect(init?.method).toBe('GET');
    expect(init?.body).toBeUndefined();
  });

  it("throws the server's error text and code for an error status (e.g. a reply already in progress)", async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(
        new Response(JSON.stringify({ error: 'A reply is already in progress', code: 'REPLY_IN_PROGRESS' }), {
          status: 409,
        }),
      ),
    );
    await expect(
      streamEndpoint(endpoints.chat.sendMessage, { params: { threadId: THREAD }, body: { message: 'x' } }),
    ).rejects.toMatchObject({ message: 'A reply is already in progress', status: 409, code: 'REPLY_IN_PROGRESS' });
  });

  it('reports an unreachable server as a network ApiError', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(streamEndpoint(endpoints.chat.initialMessage, { params: { threadId: THREAD } })).rejects.toMatchObject(
      { status: 0, code: 'NETWORK' },
    );
  });

  it('drops the token and redirects on a 401', async () => {
    const redirect = vi.fn();
    setUnauthorizedHandler(redirect);
    setToken('expired');
    vi.stubGlobal('fetch', () =>
      Promise.resolve(
        new Response(JSON.stringify({ error: 'Session expired', code: 'UNAUTHENTICATED' }), { status: 401 }),
      ),
    );
    await expect(streamEndpoint(endpoints.chat.initialMessage, { params: { threadId: THREAD } })).rejects.toMatchObject(
      { status: 401 },
    );
    expect(getToken()).toBeNull();
    expect(redirect).toHaveBeenCalledTimes(1);
  });

  it('passes an abort through as AbortError', async () => {
    const controller = new AbortController();
    controller.abort();
    vi.stubGlobal('fetch', (_url: string, init: RequestInit) =>
      init.signal?.aborted
        ? Promise.reject(new DOMException('Aborted', 'AbortError'))
        : Promise.resolve(new Response()),
    );
    await expect(
      streamEndpoint(endpoints.chat.initialMessage, { params: { threadId: THREAD }, signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('the progress event', () => {
  it('is read before [DONE] and kept apart from the text', async () => {
    const after = {
      progress: { rounds: 1, chars: 5, points: 12.5, complete: false, closed: null },
      limits: { maxMessageChars: 1000, messagesLeft: 29 },
    };
    const body = `data: {"text":"Hi"}\n\ndata: ${JSON.stringify(after)}\n\ndata: [DONE]\n\n`;
    const stream = new Response(body).body;
    if (!stream) throw new Error('no body');
    expect(await readStream(stream)).toEqual({ text: 'Hi', error: null, done: true, after });
  });
});

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What a fake provider answers to one request. */
export type FakeResponse =
  | {
      kind: 'stream';
      /** Visible reply, one delta per entry. */
      text: string[];
      /** Anthropic only: thinking blocks before the text (each string one block, streamed in two deltas). */
      thinking?: string[];
      /** Anthropic only: how many redacted_thinking blocks follow the thinking blocks. */
      redacted?: number;
      /** Pause before each text delta (realistic token rate in the bench). */
      tokenDelayMs?: number;
      /** Replace each text delta by the wall-clock time (ms, fractional) it was written, for latency measurement. */
      timestampTokens?: boolean;
      /** Destroy the connection after this many text deltas. */
      dropAfter?: number;
      /**
       * Send an error inside the stream after this many text deltas, then end: Anthropic's `error` event
       * (overloaded_error), OpenAI's `data: {"error": ...}` chunk (server_error).
       */
      errorAfter?: number;
      /** Send headers, then nothing: the client's time-out must fire. */
      stall?: boolean;
      /** Send this many text deltas, then nothing with the connection left open: the time-out mid-stream. */
      stallAfter?: number;
      inputTokens?: number;
      outputTokens?: number;
      /**
       * Bill the input from the request itself through the provider's prompt cache, as the provider documents it
       * (prompt-cache.ts), instead of `inputTokens`; the usage reported is kept in the fake's `usages`.
       */
      cached?: boolean;
    }
  | {
      kind: 'status';
      status: number;
      retryAfter?: string;
      message?: string;
      /** The provider's error type or code, when not the usual one for the status (e.g. `insufficient_quota`). */
      code?: string;
    };

/** Writes one response in a provider's wire format; implemented per provider. */
export type WireWriter = (
  res: ServerResponse,
  response: Extract<FakeResponse, { kind: 'stream' }>,
  requestBody: unknown,
) => Promise<void>;
export type ErrorWriter = (res: ServerResponse, response: Extract<FakeResponse, { kind: 'status' }>) => void;

export interface FakeProvider {
  /** Base URL to give the SDK. */
  url: string;
  /** Parsed JSON bodies of every request received, in order. */
  requests: unknown[];
  /** Request paths, in order. */
  paths: string[];
  close(): Promise<void>;
}

export const wallClockMs = (): number => performance.timeOrigin + performance.now();

/** Cuts the connection once everything written so far has left, like a provider dropping mid-stream. */
export function dropConnection(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    res.write('', () => {
      res.socket?.destroy();
      resolve();
    });
  });
}

export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * A local HTTP server on 127.0.0.1 (port 0) answering each request with the next scripted response;
 * the last one repeats. `responses` may also be a function of the request number (1-based).
 */
export async function startFakeProvider(
  responses: FakeResponse[] | ((n: number) => FakeResponse),
  writeStream: WireWriter,
  writeError: ErrorWriter,
  urlSuffix = '',
): Promise<FakeProvider> {
  const requests: unknown[] = [];
  const paths: string[] = [];
  const sockets = new Set<Socket>();
  const pick = (n: number): FakeResponse => {
    if (typeof responses === 'function') return responses(n);
    const r = responses[Math.min(n, responses.length) - 1];
    if (!r) throw new Error('fake provider has no responses');
    return r;
  };

  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      requests.push(body);
      paths.push(req.url ?? '');
      const response = pick(requests.length);
      if (response.kind === 'status') return writeError(res, response);
      await writeStream(res, response, body);
    })().catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${urlSuffix}`,
    requests,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

import type { FastifyReply } from 'fastify';

/** Where a reply's events go: the browser's event stream, or nowhere once the browser has left. */
export interface ReplySink {
  text(delta: string): void;
  error(message: string): void;
  /** Writes `data: [DONE]` and ends the response. */
  done(): void;
}

/** Calls `tick` every `ms` until stopped; injectable so tests tick by hand instead of waiting. */
export type Ticker = (ms: number, tick: () => void) => () => void;
const realTicker: Ticker = (ms, tick) => {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
};

export interface StreamOptions {
  /** A comment line (`: keep-alive`) this often, so proxies and the server's idle time-out keep the stream. */
  heartbeatMs: number;
  /** A stream with no event for this long is ended with an error event and [DONE]. */
  idleMs: number;
  ticker?: Ticker;
}

export const STREAM_IDLE_MESSAGE = 'The assistant is taking too long to answer. Please send your message again.';

/**
 * Takes the response over from Fastify and opens the event stream: `data:` lines holding JSON with
 * `text` or `error`, ending with `data: [DONE]` (spec section 7). Each event is written at once
 * (node's response is not buffered; `x-accel-buffering: no` asks proxies such as nginx not to buffer
 * either). Writes after the browser has gone are dropped, never thrown: the reply is still stored.
 */
export function openEventStream(reply: FastifyReply, options: StreamOptions): ReplySink {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (typeof value === 'string') headers[name] = value;
  }
  reply.hijack();
  const res = reply.raw;
  // A socket error after the browser went away must not crash the process.
  res.on('error', () => undefined);
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
  });
  // The browser learns at once that the stream is open, before the model's first token.
  res.flushHeaders();
  const open = () => !res.destroyed && !res.writableEnded;
  // Events written in the same turn of the event loop (tokens that arrived in one network read) leave
  // in one system call: uncorking on nextTick merges them without delaying any of them.
  let corked = false;
  const uncork = () => {
    corked = false;
    res.uncork();
  };
  const send = (chunk: string) => {
    if (!open()) return;
    if (!corked) {
      corked = true;
      res.cork();
      process.nextTick(uncork);
    }
    res.write(chunk);
  };
  // Heartbeats and the idle limit: ticks since the last event, so no clock is needed.
  let quietTicks = 0;
  const ticksToIdle = Math.max(1, Math.ceil(options.idleMs / options.heartbeatMs));
  const stop = (options.ticker ?? realTicker)(options.heartbeatMs, () => {
    if (!open()) return stop();
    quietTicks += 1;
    if (quietTicks < ticksToIdle) return send(': keep-alive\n\n');
    send(`data: ${JSON.stringify({ error: STREAM_IDLE_MESSAGE })}\n\n`);
    finish();
  });
  res.on('close', () => stop());
  const event = (payload: string) => {
    quietTicks = 0;
    send(`data: ${payload}\n\n`);
  };
  const finish = () => {
    stop();
    if (open()) res.end('data: [DONE]\n\n');
  };
  return {
    text: (delta) => event(JSON.stringify({ text: delta })),
    error: (message) => event(JSON.stringify({ error: message })),
    done: finish,
  };
}

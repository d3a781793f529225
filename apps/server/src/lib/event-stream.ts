import type { FastifyReply } from 'fastify';

// The one event-stream (server-sent events) writer: the chat's replies and the monitor's ticks go through it.

/** Calls `tick` every `ms` until stopped; injectable so tests tick by hand instead of waiting. */
export type Ticker = (ms: number, tick: () => void) => () => void;
const realTicker: Ticker = (ms, tick) => {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
};

export interface EventStreamOptions {
  /** A comment line (`: keep-alive`) this often, so proxies and the server's idle time-out keep the stream. */
  heartbeatMs: number;
  /** With no event for this long, `onIdle` is called (it should end the stream). */
  idleMs?: number;
  onIdle?: () => void;
  ticker?: Ticker;
}

export interface EventStream {
  /** Writes one event (`data: ...` and its blank line, as `chunk` gives it); dropped once the browser has gone. */
  write(chunk: string): void;
  /** Writes the last chunk, if any, and ends the response; later calls do nothing. */
  end(last?: string): void;
  /** Whether the browser is still there and the stream not ended. */
  readonly open: boolean;
  /** Called once when the stream ends, by either side. */
  onClose(listener: () => void): void;
}

/**
 * Takes the response over from Fastify and opens an event stream (`text/event-stream`, no caching, and
 * `x-accel-buffering: no` so proxies such as nginx do not buffer). Each event leaves at once: events written in
 * the same turn of the event loop (tokens that arrived in one network read) leave in one system call. Writes after
 * the browser has gone are dropped, never thrown.
 */
export function openEventStream(reply: FastifyReply, options: EventStreamOptions): EventStream {
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
  // The browser learns at once that the stream is open, before the first event.
  res.flushHeaders();
  const isOpen = () => !res.destroyed && !res.writableEnded;
  let corked = false;
  const uncork = () => {
    corked = false;
    res.uncork();
  };
  const send = (chunk: string) => {
    if (!isOpen()) return;
    if (!corked) {
      corked = true;
      res.cork();
      process.nextTick(uncork);
    }
    res.write(chunk);
  };
  // Heartbeats and the idle limit: ticks since the last event, so no clock is needed.
  let quietTicks = 0;
  const ticksToIdle =
    options.idleMs === undefined ? Infinity : Math.max(1, Math.ceil(options.idleMs / options.heartbeatMs));
  const stop = (options.ticker ?? realTicker)(options.heartbeatMs, () => {
    if (!isOpen()) return stop();
    quietTicks += 1;
    if (quietTicks < ticksToIdle) return send(': keep-alive\n\n');
    options.onIdle?.();
  });
  const listeners: (() => void)[] = [];
  let closed = false;
  const closeOnce = () => {
    if (closed) return;
    closed = true;
    stop();
    for (const listener of listeners) listener();
  };
  res.on('close', closeOnce);
  return {
    write(chunk) {
      quietTicks = 0;
      send(chunk);
    },
    end(last) {
      stop();
      if (isOpen()) res.end(last ?? '');
      closeOnce();
    },
    get open() {
      return isOpen();
    },
    onClose(listener) {
      if (closed) listener();
      else listeners.push(listener);
    },
  };
}

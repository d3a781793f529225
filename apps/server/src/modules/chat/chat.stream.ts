import type { FastifyReply } from 'fastify';

/** Where a reply's events go: the browser's event stream, or nowhere once the browser has left. */
export interface ReplySink {
  text(delta: string): void;
  error(message: string): void;
  /** Writes `data: [DONE]` and ends the response. */
  done(): void;
}

/**
 * Takes the response over from Fastify and opens the event stream: `data:` lines holding JSON with
 * `text` or `error`, ending with `data: [DONE]` (spec section 7). Each event is written at once
 * (node's response is not buffered; `x-accel-buffering: no` asks proxies such as nginx not to buffer
 * either). Writes after the browser has gone are dropped, never thrown: the reply is still stored.
 */
export function openEventStream(reply: FastifyReply): ReplySink {
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
  const write = (payload: string) => {
    if (!open()) return;
    if (!corked) {
      corked = true;
      res.cork();
      process.nextTick(uncork);
    }
    res.write(`data: ${payload}\n\n`);
  };
  return {
    text: (delta) => write(JSON.stringify({ text: delta })),
    error: (message) => write(JSON.stringify({ error: message })),
    done: () => {
      if (!open()) return;
      res.end('data: [DONE]\n\n');
    },
  };
}

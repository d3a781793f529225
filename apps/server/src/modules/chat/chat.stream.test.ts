import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Ticker } from '../../lib/event-stream.js';
import { openChatStream, STREAM_IDLE_MESSAGE, type ReplySink } from './chat.stream.js';

/** A ticker the test drives by hand. */
function manualTicker() {
  const state: { tick?: () => void; stopped: number } = { stopped: 0 };
  const ticker: Ticker = (_ms, tick) => {
    state.tick = tick;
    return () => {
      state.stopped += 1;
    };
  };
  return { ticker, state };
}

/** An app whose one route opens an event stream and hands the sink to the test. */
async function streamApp(ticker: Ticker, idleMs: number) {
  const app = Fastify({ logger: false });
  let sink: ReplySink | undefined;
  app.get('/stream', async (_request, reply) => {
    sink = openChatStream(reply, { heartbeatMs: 1000, idleMs, ticker });
    sink.text('hello');
    await new Promise<void>((resolve) => reply.raw.on('close', () => resolve()));
  });
  await app.ready();
  const response = app.inject({ method: 'GET', url: '/stream' });
  while (!sink) await new Promise((resolve) => setImmediate(resolve));
  return { app, response, sink };
}

describe('event stream heartbeat and idle end', () => {
  it('sends a comment line on each quiet tick, and ends a stream that stays quiet with an error and [DONE]', async () => {
    const { ticker, state } = manualTicker();
    const { app, response, sink } = await streamApp(ticker, 3000);
    state.tick?.();
    sink.text(' world'); // an event resets the quiet count
    state.tick?.();
    state.tick?.();
    state.tick?.();
    const res = await response;
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.body).toBe(
      [
        'data: {"text":"hello"}',
        ': keep-alive',
        'data: {"text":" world"}',
        ': keep-alive',
        ': keep-alive',
        `data: ${JSON.stringify({ error: STREAM_IDLE_MESSAGE })}`,
        'data: [DONE]',
        '',
      ].join('\n\n'),
    );
    expect(state.stopped).toBeGreaterThan(0);
    // Whatever the reply still sends after the end is dropped, never thrown.
    sink.text('late');
    sink.done();
    await app.close();
  });

  it('stops the heartbeat when the stream ends normally', async () => {
    const { ticker, state } = manualTicker();
    const { app, response, sink } = await streamApp(ticker, 60_000);
    sink.done();
    const res = await response;
    expect(res.body).toBe('data: {"text":"hello"}\n\ndata: [DONE]\n\n');
    expect(state.stopped).toBeGreaterThan(0);
    state.tick?.();
    await app.close();
  });
});

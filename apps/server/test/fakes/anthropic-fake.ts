import type { ServerResponse } from 'node:http';
import {
  dropConnection,
  pause,
  startFakeProvider,
  wallClockMs,
  type ErrorWriter,
  type FakeProvider,
  type FakeResponse,
  type WireWriter,
} from './fake-server.js';

import { fakeTokens, PromptCache, type PromptBlock } from './prompt-cache.js';

export type { FakeProvider, FakeResponse } from './fake-server.js';

/** The usage one response reported, as Anthropic reports it (input_tokens: after the last breakpoint only). */
export interface AnthropicUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  output_tokens: number;
}

/** Claude Sonnet 4.5's shortest cacheable prompt. */
const MIN_CACHEABLE_TOKENS = 1024;

type Block = { type?: string; text?: string; cache_control?: unknown };

/** The request's blocks in the order the cache sees them: system, then each message's content. */
function promptBlocks(body: unknown): PromptBlock[] {
  const request = (body ?? {}) as {
    system?: string | Block[];
    messages?: { role: string; content: string | Block[] }[];
  };
  const blocks: PromptBlock[] = [];
  const add = (role: string, content: string | Block[] | undefined) => {
    if (content === undefined) return;
    const list: Block[] = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
    for (const b of list) {
      const text = b.text ?? '';
      blocks.push({ key: `${role}:${text}`, tokens: fakeTokens(text), breakpoint: b.cache_control !== undefined });
    }
  };
  add('system', request.system);
  for (const m of request.messages ?? []) add(m.role, m.content);
  return blocks;
}

export const FAKE_ANTHROPIC_MODEL = 'claude-sonnet-4-5-20250929';

// Byte-faithful to the Messages streaming format: `event: <type>` then `data: <json>` and a blank line.
function event(res: ServerResponse, type: string, data: unknown): void {
  res.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

const writeError: ErrorWriter = (res, response) => {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'request-id': 'req_fake_error' };
  if (response.retryAfter !== undefined) headers['retry-after'] = response.retryAfter;
  res.writeHead(response.status, headers);
  res.end(
    JSON.stringify({
      type: 'error',
      error: {
        type: response.code ?? ERROR_TYPES[response.status] ?? 'api_error',
        message: response.message ?? 'Fake failure',
      },
      request_id: 'req_fake_error',
    }),
  );
};

const writeStream =
  (cache: PromptCache, usages: AnthropicUsage[]): WireWriter =>
  async (res, r, body) => {
    let usage: Omit<AnthropicUsage, 'output_tokens'> = {
      input_tokens: r.inputTokens ?? 100,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    };
    if (r.cached) {
      const model = (body as { model?: string } | null)?.model ?? '';
      const billed = cache.anthropic(model, promptBlocks(body));
      usage = {
        input_tokens: billed.input,
        cache_creation_input_tokens: billed.write,
        cache_read_input_tokens: billed.read,
      };
    }
    await writeMessage(res, r, usage, (output) => usages.push({ ...usage, output_tokens: output }));
  };

async function writeMessage(
  res: ServerResponse,
  r: Extract<FakeResponse, { kind: 'stream' }>,
  usage: Omit<AnthropicUsage, 'output_tokens'>,
  billed: (outputTokens: number) => void,
): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'request-id': 'req_fake_stream',
  });
  if (r.stall) {
    res.flushHeaders();
    return;
  }
  event(res, 'message_start', {
    type: 'message_start',
    message: {
      id: 'msg_fake',
      type: 'message',
      role: 'assistant',
      content: [],
      model: FAKE_ANTHROPIC_MODEL,
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  let index = 0;
  for (const thinking of r.thinking ?? []) {
    event(res, 'content_block_start', {
      type: 'content_block_start',
      index,
      content_block: { type: 'thinking', thinking: '', signature: '' },
    });
    const half = Math.ceil(thinking.length / 2);
    for (const part of [thinking.slice(0, half), thinking.slice(half)]) {
      event(res, 'content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'thinking_delta', thinking: part },
      });
    }
    event(res, 'content_block_delta', {
      type: 'content_block_delta',
      index,
      delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds' },
    });
    event(res, 'content_block_stop', { type: 'content_block_stop', index });
    index += 1;
  }
  for (let i = 0; i < (r.redacted ?? 0); i += 1) {
    event(res, 'content_block_start', {
      type: 'content_block_start',
      index,
      content_block: {
        type: 'redacted_thinking',
        data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP',
      },
    });
    event(res, 'content_block_stop', { type: 'content_block_stop', index });
    index += 1;
  }
  event(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
  event(res, 'ping', { type: 'ping' });
  for (let i = 0; i < r.text.length; i += 1) {
    if (r.dropAfter === i) {
      await dropConnection(res);
      return;
    }
    if (r.errorAfter === i) {
      event(res, 'error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
      res.end();
      return;
    }
    if (r.stallAfter === i) return;
    if (r.tokenDelayMs) await pause(r.tokenDelayMs);
    const text = r.timestampTokens ? `${wallClockMs()} ` : (r.text[i] ?? '');
    event(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
  }
  if (r.dropAfter === r.text.length) {
    await dropConnection(res);
    return;
  }
  event(res, 'content_block_stop', { type: 'content_block_stop', index });
  const outputTokens = r.outputTokens ?? r.text.length;
  // The delta's usage is cumulative; with caching it repeats the input side, as the API does.
  event(res, 'message_delta', {
    type: 'message_delta',
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: r.cached ? { ...usage, output_tokens: outputTokens } : { output_tokens: outputTokens },
  });
  event(res, 'message_stop', { type: 'message_stop' });
  billed(outputTokens);
  res.end();
}

export interface AnthropicFake extends FakeProvider {
  /** The usage each completed response reported, in order. */
  usages: AnthropicUsage[];
  cache: PromptCache;
}

/**
 * A fake Anthropic Messages API (`POST /v1/messages`, streaming) on 127.0.0.1; responses with `cached` bill their
 * input through a prompt cache that honours `cache_control` breakpoints as Anthropic documents them.
 */
export async function startAnthropicFake(
  responses: FakeResponse[] | ((n: number) => FakeResponse),
): Promise<AnthropicFake> {
  const cache = new PromptCache(MIN_CACHEABLE_TOKENS);
  const usages: AnthropicUsage[] = [];
  const provider = await startFakeProvider(responses, writeStream(cache, usages), writeError);
  return Object.assign(provider, { usages, cache });
}

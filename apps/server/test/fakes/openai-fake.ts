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

/** The usage one response reported in its final chunk (prompt_tokens counts the cached ones too). */
export interface OpenAiUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
}

/** OpenAI caches prompts of 1,024 tokens or more. */
const MIN_CACHEABLE_TOKENS = 1024;

/** The request's messages in order; the cache's scope is the model and the prompt_cache_key. */
function promptOf(body: unknown): { scope: string; blocks: PromptBlock[] } {
  const request = (body ?? {}) as {
    model?: string;
    prompt_cache_key?: string;
    messages?: { role: string; content: string }[];
  };
  const blocks = (request.messages ?? []).map((m) => ({
    key: `${m.role}:${m.content}`,
    tokens: fakeTokens(m.content),
    breakpoint: false,
  }));
  return { scope: `${request.model ?? ''}\u0000${request.prompt_cache_key ?? ''}`, blocks };
}

export const FAKE_OPENAI_MODEL = 'gpt-4o-mini-2024-07-18';

const ERROR_CODES: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  404: { type: 'invalid_request_error', code: 'model_not_found' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
  503: { type: 'server_error', code: null },
};

const writeError: ErrorWriter = (res, response) => {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': 'req_fake_error' };
  if (response.retryAfter !== undefined) headers['retry-after'] = response.retryAfter;
  res.writeHead(response.status, headers);
  const kind = response.code
    ? { type: response.code, code: response.code }
    : (ERROR_CODES[response.status] ?? { type: 'server_error', code: null });
  res.end(
    JSON.stringify({
      error: { message: response.message ?? 'Fake failure', type: kind.type, param: null, code: kind.code },
    }),
  );
};

const chunk = (model: string, choices: unknown[], usage: unknown = null) => ({
  id: 'chatcmpl-fake',
  object: 'chat.completion.chunk',
  created: 1_763_700_000,
  model,
  system_fingerprint: 'fp_fake',
  choices,
  usage,
});

// Byte-faithful to chat-completions streaming: `data: <json>` lines and a blank line, ending with `data: [DONE]`.
function data(res: ServerResponse, payload: unknown): void {
  res.write(`data: ${JSON.stringify(payload)}\n\n`);
}

const writeStream =
  (cache: PromptCache, usages: OpenAiUsage[]): WireWriter =>
  async (res, r, body) => {
    let prompt = r.inputTokens ?? 100;
    let cached = 0;
    if (r.cached) {
      const { scope, blocks } = promptOf(body);
      ({ prompt, cached } = cache.openai(scope, blocks));
    }
    await writeCompletion(res, r, { prompt, cached }, (completion) =>
      usages.push({ prompt_tokens: prompt, completion_tokens: completion, cached_tokens: cached }),
    );
  };

async function writeCompletion(
  res: ServerResponse,
  r: Extract<FakeResponse, { kind: 'stream' }>,
  input: { prompt: number; cached: number },
  billed: (completionTokens: number) => void,
): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'x-request-id': 'req_fake_stream' });
  if (r.stall) {
    res.flushHeaders();
    return;
  }
  const model = FAKE_OPENAI_MODEL;
  data(
    res,
    chunk(model, [
      { index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null },
    ]),
  );
  for (let i = 0; i < r.text.length; i += 1) {
    if (r.dropAfter === i) {
      await dropConnection(res);
      return;
    }
    if (r.errorAfter === i) {
      // What chat completions sends when the model fails mid-stream: a chunk that is only an error.
      data(res, {
        error: {
          message: 'The server had an error while processing your request.',
          type: 'server_error',
          param: null,
          code: null,
        },
      });
      res.end();
      return;
    }
    if (r.stallAfter === i) return;
    if (r.tokenDelayMs) await pause(r.tokenDelayMs);
    const content = r.timestampTokens ? `${wallClockMs()} ` : (r.text[i] ?? '');
    data(res, chunk(model, [{ index: 0, delta: { content }, logprobs: null, finish_reason: null }]));
  }
  if (r.dropAfter === r.text.length) {
    await dropConnection(res);
    return;
  }
  data(res, chunk(model, [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }]));
  const { prompt, cached } = input;
  const completion = r.outputTokens ?? r.text.length;
  data(
    res,
    chunk(model, [], {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    }),
  );
  billed(completion);
  res.end('data: [DONE]\n\n');
}

export interface OpenAiFake extends FakeProvider {
  /** The usage each completed response reported, in order. */
  usages: OpenAiUsage[];
  cache: PromptCache;
}

/**
 * A fake OpenAI-compatible chat-completions API (`POST /v1/chat/completions`, streaming) on 127.0.0.1; responses
 * with `cached` bill their prompt through OpenAI's automatic prompt cache (per model and prompt_cache_key).
 */
export async function startOpenAiFake(responses: FakeResponse[] | ((n: number) => FakeResponse)): Promise<OpenAiFake> {
  const cache = new PromptCache(MIN_CACHEABLE_TOKENS);
  const usages: OpenAiUsage[] = [];
  const provider = await startFakeProvider(responses, writeStream(cache, usages), writeError, '/v1');
  return Object.assign(provider, { usages, cache });
}

import OpenAI from 'openai';
import type { ChatModel } from './chat-model.js';
import { ChatModelError } from './errors.js';
import { openingTurns } from './history.js';
import type { RetryPolicy } from './retry.js';
import { readSse } from './sse.js';
import { createStreamingModel } from './streaming-model.js';

export interface OpenAiModelOptions {
  /** Local servers (Ollama, vLLM, llama.cpp) usually need none. */
  apiKey: string | undefined;
  baseUrl?: string;
  model: string;
  maxTokens: number;
  timeoutMs: number;
  retry: RetryPolicy;
}

/**
 * Whether the model is OpenAI's own and caches prompts (gpt-4o and newer, the o-series): only those get a
 * prompt_cache_key; a local server's model gets none (some refuse a parameter they do not know).
 */
export function supportsPromptCacheKey(model: string): boolean {
  if (model.startsWith('gpt-4o-2024-05-13')) return false;
  return /^(gpt-4o|gpt-4\.1|gpt-5|o[1-9])(?:[-.]|$)/.test(model);
}

/** Any OpenAI-compatible chat-completions endpoint, streamed, with usage requested in the stream. */
export function createOpenAiModel(options: OpenAiModelOptions): ChatModel {
  // Our retry policy is the only one: the SDK's own retries are off.
  const client = new OpenAI({
    apiKey: options.apiKey ?? 'not-needed',
    baseURL: options.baseUrl,
    maxRetries: 0,
    timeout: options.timeoutMs,
  });

  return createStreamingModel(
    {
      provider: 'openai',
      model: options.model,
      timeoutMs: options.timeoutMs,
      retry: options.retry,
      // max_completion_tokens bounds the reasoning tokens too.
      maxOutputTokens: (request) => request.maxTokens ?? options.maxTokens,
    },
    async (request, ctx) => {
      // The SDK sends the request and throws its APIError on an error status; the stream is ours to read
      // (llm/sse.ts, decision 0070), handled as the SDK's Stream handled it.
      const model = request.model ?? options.model;
      const response = await client.chat.completions
        .create(
          {
            model,
            // One key per conversation: its turns reach the same cache (docs/decisions/0076).
            ...(request.cacheKey !== undefined && supportsPromptCacheKey(model)
              ? { prompt_cache_key: request.cacheKey }
              : {}),
            ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
            // OpenAI's newer models accept only max_completion_tokens; local servers know max_tokens.
            ...(options.baseUrl
              ? { max_tokens: request.maxTokens ?? options.maxTokens }
              : { max_completion_tokens: request.maxTokens ?? options.maxTokens }),
            messages: [{ role: 'system', content: request.system }, ...openingTurns(request.history)],
            stream: true,
            stream_options: { include_usage: true },
          },
          { signal: ctx.signal },
        )
        .asResponse();

      const partial = ctx.partial;
      partial.thinking = [];
      let finished = false;
      let done = false;
      await readSse(response, (sse) => {
        if (done) return;
        if (sse.data.startsWith('[DONE]')) {
          done = true;
          return;
        }
        const chunk = JSON.parse(sse.data) as OpenAI.Chat.Completions.ChatCompletionChunk & { error?: unknown };
        // An error sent inside the stream (the SDK's Stream threw the same).
        if (chunk && chunk.error) throw new OpenAI.APIError(undefined, chunk.error, undefined, response.headers);
        ctx.touch();
        if (chunk.model) partial.model = chunk.model;
        const choice = chunk.choices[0];
        const text = choice?.delta?.content;
        if (text) ctx.onText(text);
        if (choice?.finish_reason) {
          partial.stopReason = choice.finish_reason;
          finished = true;
        }
        if (chunk.usage) {
          // prompt_tokens counts every input token; of them, cached_tokens were read from the cache and (GPT-5.6
          // and later) cache_write_tokens written to it, each billed at its own rate.
          const details = chunk.usage.prompt_tokens_details as
            { cached_tokens?: number | null; cache_write_tokens?: number | null } | undefined;
          partial.inputTokens = chunk.usage.prompt_tokens;
          partial.outputTokens = chunk.usage.completion_tokens;
          partial.cacheReadTokens = details?.cached_tokens ?? 0;
          partial.cacheWriteTokens = details?.cache_write_tokens ?? 0;
        }
      });
      if (!finished) {
        throw new ChatModelError('connection', 'The provider closed the stream before the reply ended', { partial });
      }
      return {
        model: partial.model ?? model,
        inputTokens: partial.inputTokens ?? null,
        outputTokens: partial.outputTokens ?? null,
        cacheWriteTokens: partial.cacheWriteTokens ?? null,
        cacheReadTokens: partial.cacheReadTokens ?? null,
        stopReason: partial.stopReason ?? null,
        thinking: [],
      };
    },
  );
}

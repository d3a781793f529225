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
      const response = await client.chat.completions
        .create(
          {
            model: request.model ?? options.model,
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
          partial.inputTokens = chunk.usage.prompt_tokens;
          partial.outputTokens = chunk.usage.completion_tokens;
        }
      });
      if (!finished) {
        throw new ChatModelError('connection', 'The provider closed the stream before the reply ended', { partial });
      }
      return {
        model: partial.model ?? request.model ?? options.model,
        inputTokens: partial.inputTokens ?? null,
        outputTokens: partial.outputTokens ?? null,
        stopReason: partial.stopReason ?? null,
        thinking: [],
      };
    },
  );
}

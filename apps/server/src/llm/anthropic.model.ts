import Anthropic from '@anthropic-ai/sdk';
import type { ChatModel, ChatReplyInfo, ChatRequest, ThinkingEntry } from './chat-model.js';
import { ChatModelError } from './errors.js';
import type { RetryPolicy } from './retry.js';
import { readSse } from './sse.js';
import { createStreamingModel } from './streaming-model.js';
import { openingTurns } from './history.js';

export interface AnthropicModelOptions {
  apiKey: string;
  baseUrl?: string;
  model: string;
  /** Tokens for the visible reply; the thinking budget comes on top (thinking counts toward max_tokens). */
  maxTokens: number;
  thinkingBudget: number;
  timeoutMs: number;
  retry: RetryPolicy;
}

/** The API's smallest thinking budget. */
const MIN_THINKING_BUDGET = 1024;

/**
 * Claude 4.6 and later think adaptively (Claude 5 models reject a fixed budget with a 400); earlier
 * models only know the budget form. Names without a version keep the budget form.
 */
export function usesAdaptiveThinking(model: string): boolean {
  if (/^claude-(mythos|fable)-/.test(model)) return true;
  const match = /^claude-(?:opus|sonnet|haiku)-(\d+)(?:-(\d{1,2}))?(?:-|$)/.exec(model);
  if (!match) return false;
  const major = Number(match[1]);
  const minor = Number(match[2] ?? 0);
  return major > 4 || (major === 4 && minor >= 6);
}

/**
 * Whether the model takes prompt-cache breakpoints: every Claude model does (Anthropic's prompt caching docs list
 * them all); a name that is not Claude's (a compatible server's own model) gets none. A prompt shorter than the
 * model's minimum cacheable length is simply not cached, without an error.
 */
export function supportsPromptCaching(model: string): boolean {
  return model.startsWith('claude-');
}

const EPHEMERAL = { type: 'ephemeral' } as const;

/**
 * The request's system prompt and messages with Anthropic's documented pattern for a multi-turn chat: a cache
 * breakpoint on the system prompt and one on the last message, so each turn writes the conversation so far to the
 * cache and the next turn reads it (the cache looks back from a breakpoint to the previous turn's).
 */
export function cachedPrompt(
  system: string,
  turns: readonly { role: 'user' | 'assistant'; content: string }[],
): { system?: Anthropic.TextBlockParam[]; messages: Anthropic.MessageParam[] } {
  const messages: Anthropic.MessageParam[] = turns.map((turn, i) =>
    i === turns.length - 1 && turn.content !== ''
      ? { role: turn.role, content: [{ type: 'text', text: turn.content, cache_control: EPHEMERAL }] }
      : { role: turn.role, content: turn.content },
  );
  // An empty text block is refused by the API: no system prompt, no block.
  return system === ''
    ? { messages }
    : { system: [{ type: 'text', text: system, cache_control: EPHEMERAL }], messages };
}

/** Claude through the Messages API, streamed, with extended thinking kept in order in the thinking log. */
export function createAnthropicModel(options: AnthropicModelOptions): ChatModel {
  // Our retry policy is the only one: the SDK's own retries are off.
  const client = new Anthropic({
    apiKey: options.apiKey,
    baseURL: options.baseUrl,
    maxRetries: 0,
    timeout: options.timeoutMs,
  });
  // Summarised thinking comes back as readable text for the log; some models omit it by default.
  const thinkingFor = (model: string, budget: number): Anthropic.ThinkingConfigParam =>
    usesAdaptiveThinking(model)
      ? { type: 'adaptive', display: 'summarized' }
      : { type: 'enabled', budget_tokens: budget };

  /** The visible reply's tokens and, with thinking, its budget on top (max_tokens counts both). */
  const outputTokens = (request: ChatRequest) => {
    const replyTokens = request.maxTokens ?? options.maxTokens;
    const asked = request.thinkingBudget ?? options.thinkingBudget;
    const budget = Math.max(MIN_THINKING_BUDGET, asked);
    const think = request.thinking !== false && asked > 0;
    return { replyTokens, budget, think, max: think ? budget + replyTokens : replyTokens };
  };

  return createStreamingModel(
    {
      provider: 'anthropic',
      model: options.model,
      timeoutMs: options.timeoutMs,
      retry: options.retry,
      maxOutputTokens: (request) => outputTokens(request).max,
    },
    async (request, ctx) => {
      const model = request.model ?? options.model;
      const { budget, think, max } = outputTokens(request);
      // The SDK sends the request and throws its APIError on an error status; the stream is ours to read
      // (llm/sse.ts, decision 0070), handled as the SDK's Stream handled it.
      const response = await client.messages
        .create(
          {
            model,
            max_tokens: max,
            ...(supportsPromptCaching(model)
              ? cachedPrompt(request.system, openingTurns(request.history))
              : { system: request.system, messages: openingTurns(request.history) }),
            ...(think ? { thinking: thinkingFor(model, budget) } : {}),
            ...(!think && request.temperature !== undefined ? { temperature: request.temperature } : {}),
            stream: true,
          },
          { signal: ctx.signal },
        )
        .asResponse();

      // Content blocks by stream index; the log is read back in index order.
      const blocks = new Map<number, ThinkingEntry>();
      const partial = ctx.partial;
      partial.thinking = [];
      const syncThinking = () => {
        partial.thinking = [...blocks.entries()].sort(([a], [b]) => a - b).map(([, entry]) => entry);
      };
      let stopped = false;

      await readSse(response, (sse) => {
        // Pings and events without a name are skipped; an error event is the SDK's APIError, as its Stream threw.
        if (sse.event === 'ping' || sse.event === null) return;
        if (sse.event === 'error') throw streamError(sse.data, response.headers);
        if (!sse.data) return;
        const event = JSON.parse(sse.data) as Anthropic.RawMessageStreamEvent;
        ctx.touch();
        switch (event.type) {
          case 'message_start': {
            const usage = event.message.usage;
            partial.model = event.message.model;
            noteUsage(partial, usage);
            partial.outputTokens = usage.output_tokens;
            break;
          }
          case 'content_block_start': {
            const block = event.content_block;
            if (block.type === 'thinking') blocks.set(event.index, { type: 'thinking', thinking: block.thinking });
            else if (block.type === 'redacted_thinking') blocks.set(event.index, { type: 'redacted_thinking' });
            else if (block.type === 'text' && block.text) ctx.onText(block.text);
            syncThinking();
            break;
          }
          case 'content_block_delta': {
            const delta = event.delta;
            if (delta.type === 'text_delta') ctx.onText(delta.text);
            else if (delta.type === 'thinking_delta') {
              const entry = blocks.get(event.index);
              if (entry?.type === 'thinking') entry.thinking += delta.thinking;
            }
            break;
          }
          case 'message_delta': {
            const usage = event.usage;
            partial.outputTokens = usage.output_tokens;
            // The delta's counts are cumulative: when it gives the input side, it replaces message_start's.
            if (typeof usage.input_tokens === 'number') noteUsage(partial, usage);
            partial.stopReason = event.delta.stop_reason ?? partial.stopReason ?? null;
            break;
          }
          case 'message_stop':
            stopped = true;
            break;
          default:
            break;
        }
      });
      syncThinking();
      if (!stopped)
        throw new ChatModelError('connection', 'The provider closed the stream before the reply ended', { partial });
      return finish(partial, model);
    },
  );
}

/** An `error` event in the stream, as the SDK's Stream made it: `{ type: 'error', error: { type, message } }`. */
function streamError(data: string, headers: Headers): InstanceType<typeof Anthropic.APIError> {
  let body: unknown = data;
  try {
    body = (JSON.parse(data) as unknown) ?? data;
  } catch {
    // Not JSON: the text itself is the error, as the SDK kept it.
  }
  const inner = body && typeof body === 'object' ? (body as { error?: { type?: unknown } }).error : undefined;
  const type = typeof inner?.type === 'string' ? (inner.type as Anthropic.ErrorType) : undefined;
  return new Anthropic.APIError(undefined, body as object | undefined, undefined, headers, type);
}

/**
 * Anthropic's usage: `input_tokens` are the input tokens after the last cache breakpoint (billed at the input
 * price); cache writes and reads are counted apart, so every input token is their sum.
 */
function noteUsage(
  partial: Partial<ChatReplyInfo>,
  usage: {
    input_tokens: number | null;
    cache_creation_input_tokens?: number | null;
    cache_read_input_tokens?: number | null;
  },
): void {
  const write = usage.cache_creation_input_tokens ?? 0;
  const read = usage.cache_read_input_tokens ?? 0;
  partial.inputTokens = (usage.input_tokens ?? 0) + write + read;
  partial.cacheWriteTokens = write;
  partial.cacheReadTokens = read;
}

function finish(partial: Partial<ChatReplyInfo>, fallbackModel: string): ChatReplyInfo {
  return {
    model: partial.model ?? fallbackModel,
    inputTokens: partial.inputTokens ?? null,
    outputTokens: partial.outputTokens ?? null,
    cacheWriteTokens: partial.cacheWriteTokens ?? null,
    cacheReadTokens: partial.cacheReadTokens ?? null,
    stopReason: partial.stopReason ?? null,
    thinking: partial.thinking ?? [],
  };
}

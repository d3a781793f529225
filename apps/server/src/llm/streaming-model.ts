import type { ChatModel, ChatReplyInfo, ChatRequest, LlmProvider, PartialReplyInfo } from './chat-model.js';
import { classifyError } from './errors.js';
import { withRetry, type RetryPolicy } from './retry.js';

/** What one provider attempt gets: an abort signal, where to send text, and a record of what is known so far. */
export interface AttemptContext {
  signal: AbortSignal;
  onText: (delta: string) => void;
  /** Call on every event from the provider: the idle timer restarts. */
  touch: () => void;
  /** Filled in as the stream goes, so a failure can still store model, tokens and thinking. */
  partial: PartialReplyInfo;
}

/** One call to the provider; throws whatever the SDK throws. */
export type ProviderAttempt = (request: ChatRequest, ctx: AttemptContext) => Promise<ChatReplyInfo>;

export interface StreamingModelOptions {
  provider: LlmProvider;
  model: string;
  /** Longest silence from the provider (before the first byte or between events) before giving up. */
  timeoutMs: number;
  retry: RetryPolicy;
  /** The most output tokens one request can be billed for (ChatModel.maxOutputTokens). */
  maxOutputTokens: (request: ChatRequest) => number;
}

/**
 * Wraps a provider attempt with the policy every real adapter shares: an idle time-out, error
 * classification, and retries of transient failures that happened before any text reached the participant.
 */
export function createStreamingModel(options: StreamingModelOptions, attempt: ProviderAttempt): ChatModel {
  return {
    provider: options.provider,
    model: options.model,
    maxOutputTokens: options.maxOutputTokens,
    async streamReply(request, onText) {
      let emitted = false;
      return withRetry(
        options.retry,
        async () => {
          const controller = new AbortController();
          let timedOut = false;
          const timer = setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, options.timeoutMs);
          const partial: PartialReplyInfo = {};
          const touch = () => void timer.refresh();
          try {
            return await attempt(request, {
              signal: controller.signal,
              touch,
              partial,
              onText: (delta) => {
                if (delta === '') return;
                emitted = true;
                touch();
                onText(delta);
              },
            });
          } catch (error) {
            const failure = classifyError(error, partial, timedOut);
            failure.afterFirstToken = emitted;
            throw failure;
          } finally {
            clearTimeout(timer);
          }
        },
        { deferRateLimits: request.waitsItself },
      );
    },
  };
}

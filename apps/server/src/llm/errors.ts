import type { PartialReplyInfo } from './chat-model.js';

export type ChatModelFailure =
  | 'rate_limited'
  | 'unavailable'
  | 'connection'
  | 'timeout'
  | 'rejected'
  | 'incomplete'
  /** The account has no credit or quota left: retrying cannot help. */
  | 'quota';

/** A failed model call, classified so the retry policy and the participant's message can depend on it. */
export class ChatModelError extends Error {
  /** Set by the retrying wrapper: text had already reached the participant, so it must not be retried. */
  afterFirstToken = false;
  /** How many attempts were made in total. */
  attempts = 1;

  constructor(
    readonly failure: ChatModelFailure,
    message: string,
    readonly options: {
      /** HTTP status from the provider, when there was one. */
      status?: number;
      /** The provider asked us to wait this long before retrying. */
      retryAfterMs?: number;
      /** The provider's own error type or code, e.g. `authentication_error`, `model_not_found`. */
      providerCode?: string;
      partial?: PartialReplyInfo;
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ChatModelError';
  }

  /** 429, 5xx, overloaded and connection failures may succeed on a later attempt. */
  get transient(): boolean {
    return this.failure === 'rate_limited' || this.failure === 'unavailable' || this.failure === 'connection';
  }

  /** The provider asked to be called later: a 429, or Anthropic's 529 overloaded. */
  get asksToWait(): boolean {
    return (
      this.failure === 'rate_limited' || this.options.status === 529 || this.options.providerCode === 'overloaded_error'
    );
  }

  get partial(): PartialReplyInfo {
    return this.options.partial ?? {};
  }
}

interface SdkErrorShape {
  status?: unknown;
  headers?: unknown;
  type?: unknown;
  error?: unknown;
  name?: unknown;
  message?: unknown;
}

function retryAfterMs(headers: unknown): number | undefined {
  if (!(headers instanceof Headers)) return undefined;
  const ms = Number(headers.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Error `type` inside a provider error body: `{ error: { type } }` (Anthropic) or `{ type }` / `{ code }` (OpenAI). */
function bodyErrorType(shape: SdkErrorShape): string | undefined {
  if (typeof shape.type === 'string') return shape.type;
  const body = shape.error;
  if (body && typeof body === 'object') {
    const inner = (body as { error?: unknown; type?: unknown; code?: unknown }).error;
    if (inner && typeof inner === 'object') {
      const type = (inner as { type?: unknown }).type;
      if (typeof type === 'string') return type;
    }
    const type = (body as { type?: unknown }).type ?? (body as { code?: unknown }).code;
    if (typeof type === 'string') return type;
  }
  return undefined;
}

const TRANSIENT_BODY_TYPES = new Set(['overloaded_error', 'api_error', 'rate_limit_error', 'server_error']);

/** OpenAI answers an exhausted quota with 429 `insufficient_quota`; Anthropic with 400 and a credit message. */
function isQuotaExhausted(type: string | undefined, detail: string): boolean {
  return type === 'insufficient_quota' || /credit balance is too low/i.test(detail);
}

/** An OpenAI-style `code` beside the `type` (`model_not_found`, `invalid_api_key`). */
function bodyErrorCode(shape: SdkErrorShape & { code?: unknown }): string | undefined {
  if (typeof shape.code === 'string') return shape.code;
  const body = shape.error;
  if (!body || typeof body !== 'object') return undefined;
  const code = (body as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Turns whatever an SDK threw into a ChatModelError. `timedOut` says our own idle timer aborted the
 * call, which the SDK reports as a user abort.
 */
export function classifyError(error: unknown, partial: PartialReplyInfo, timedOut: boolean): ChatModelError {
  // Our idle timer aborted the call, whatever the SDK made of the abort (some end the stream quietly).
  if (timedOut) return new ChatModelError('timeout', 'The model did not answer in time', { partial, cause: error });
  if (error instanceof ChatModelError) return error;
  const shape: SdkErrorShape = error && typeof error === 'object' ? (error as SdkErrorShape) : {};
  const name = typeof shape.name === 'string' ? shape.name : '';
  const detail = typeof shape.message === 'string' ? shape.message : String(error);
  const status = typeof shape.status === 'number' ? shape.status : undefined;
  const type = bodyErrorType(shape);
  const providerCode = bodyErrorCode(shape) ?? type;
  const common = { status, partial, cause: error, ...(providerCode ? { providerCode } : {}) };

  if (name === 'APIConnectionTimeoutError' || error?.constructor?.name === 'APIConnectionTimeoutError') {
    return new ChatModelError('timeout', 'The model did not answer in time', common);
  }
  if (isQuotaExhausted(providerCode, detail) || isQuotaExhausted(type, detail)) {
    return new ChatModelError('quota', `The provider account has no credit or quota left: ${detail}`, common);
  }
  if (status === 429) {
    return new ChatModelError('rate_limited', `Rate limited by the provider: ${detail}`, {
      ...common,
      retryAfterMs: retryAfterMs(shape.headers),
    });
  }
  if (status !== undefined && status >= 500) {
    return new ChatModelError('unavailable', `Provider error ${status}: ${detail}`, {
      ...common,
      retryAfterMs: retryAfterMs(shape.headers),
    });
  }
  if (status !== undefined)
    return new ChatModelError('rejected', `Provider refused the request (${status}): ${detail}`, common);
  if (type && TRANSIENT_BODY_TYPES.has(type)) {
    return new ChatModelError('unavailable', `Provider error in the stream (${type}): ${detail}`, common);
  }
  if (type) return new ChatModelError('rejected', `Provider error in the stream (${type}): ${detail}`, common);
  // Connection refused or reset, a body cut off mid-stream ("terminated"), DNS failures.
  return new ChatModelError('connection', `Connection to the provider failed: ${detail}`, common);
}

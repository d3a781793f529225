import type { Condition, ConditionChat } from '@studychat/contracts';

/** One turn of the conversation the model sees. */
export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** What the model is asked: a system prompt and the history, ending with the turn to answer. */
export interface ChatRequest {
  system: string;
  history: ChatTurn[];
  /** The participant's condition; only the scripted model uses it (real models get the system prompt). */
  condition: Condition;
  /** The study version's scripted texts for this condition; only the scripted model uses them. */
  script?: ConditionChat['scripted'];
  /** Tokens of the visible reply; the adapter's configured value when absent. */
  maxTokens?: number;
  /** False asks for no extended thinking (the model check's tiny request). */
  thinking?: boolean;
  /** The study condition's model; the adapter's configured model when absent. */
  model?: string;
  /** The study condition's temperature; the provider's default when absent (never sent with thinking). */
  temperature?: number;
  /** The study condition's thinking budget (0: no thinking); the adapter's configured budget when absent. */
  thinkingBudget?: number;
  /**
   * A stable key for the conversation (the thread's id): OpenAI routes requests with the same prompt_cache_key to
   * the same cache (docs/decisions/0076). Anthropic caches by its breakpoints and needs none.
   */
  cacheKey?: string;
  /**
   * The caller waits out a 429 or 529 itself (the chat's shared provider queue, docs/decisions/0076): the adapter
   * throws them at once instead of retrying them within its retry budget.
   */
  waitsItself?: boolean;
}

/** One entry of the thinking log, stored as JSON text in this exact shape. */
export type ThinkingEntry = { type: 'thinking'; thinking: string } | { type: 'redacted_thinking' };

/** Everything known about a finished reply besides its text (which arrives through `onText`). */
export interface ChatReplyInfo {
  /** The model that answered, as the provider reports it. */
  model: string;
  /** Every input token billed, cached or not (the token limit counts these). */
  inputTokens: number | null;
  outputTokens: number | null;
  /** Of the input tokens, those written to the provider's prompt cache (null or absent: the provider did not say). */
  cacheWriteTokens?: number | null;
  /** Of the input tokens, those read from the provider's prompt cache (null or absent: the provider did not say). */
  cacheReadTokens?: number | null;
  stopReason: string | null;
  thinking: ThinkingEntry[];
}

export type LlmProvider = 'anthropic' | 'openai' | 'scripted';

/** Our one interface over every chat model (DESIGN.md: behind one small interface of ours). */
export interface ChatModel {
  readonly provider: LlmProvider;
  readonly model: string;
  /**
   * Streams a reply: `onText` receives each text delta in order. Resolves with the reply's details;
   * rejects with a ChatModelError (transient failures before the first token are already retried).
   */
  streamReply(request: ChatRequest, onText: (delta: string) => void): Promise<ChatReplyInfo>;
  /**
   * The most output tokens the provider can bill for this request (the visible reply and any thinking): the
   * spend reserved before the call is priced on it (docs/decisions/0073).
   */
  maxOutputTokens(request: ChatRequest): number;
}

/** Partial details of a reply, known when an attempt fails. */
export type PartialReplyInfo = Partial<ChatReplyInfo>;

import type { ChatModelSettings, CostEstimateArm, CostEstimateReply, CostPair } from '@studychat/contracts';
import { supportsPromptCaching } from '../../llm/anthropic.model.js';
import { supportsPromptCacheKey } from '../../llm/openai.model.js';
import { cachePrices, costOf, priceFor, type PriceTable, type TokenUsage } from '../../llm/pricing.js';

// The chat's expected cost before launch (issue 32, docs/decisions/0076), as a pure rule: from each arm's
// prompts, completion rule and models, the tokens a participant's calls send and receive, priced with and
// without the provider's prompt cache. Every assumption is a constant here and a sentence in ASSUMPTIONS.

/** A token is about 4 characters of English text (both providers' rule of thumb). */
export const CHARS_PER_TOKEN = 4;
/** A reply is expected to be about 300 tokens (some 225 words), or the arm's reply-token cap if lower. */
export const EXPECTED_REPLY_TOKENS = 300;
/** A participant's message is as long as the points rule needs, and at least this many characters. */
export const MIN_MESSAGE_CHARS = 100;
/** A prompt prefix shorter than this is not cached (the providers' usual minimum). */
export const CACHE_MIN_TOKENS = 1024;

export const ASSUMPTIONS: readonly string[] = [
  `Tokens are estimated as one per ${CHARS_PER_TOKEN} characters of the prompts and messages.`,
  "A piped answer ({{key}}) is counted at its longest: a choice's longest label, a text answer's most characters.",
  'Each participant chats for exactly the rounds their arm’s completion rule asks for; the chat’s opening is one more call.',
  `Each participant message is as long as the points rule needs, and at least ${MIN_MESSAGE_CHARS} characters.`,
  `Each reply is about ${EXPECTED_REPLY_TOKENS} tokens (or the reply-token limit if lower); extended thinking counts at its full budget.`,
  'An AI text step is one call, its reply as long as the step allows.',
  `With caching, each turn reads the conversation so far from the provider's cache (turns within 5 minutes) and writes the rest; a prompt under ${CACHE_MIN_TOKENS} tokens is not cached, and a model without prompt caching costs the same either way.`,
  'Every participant in the sample reaches the chat; screened-out participants cost less. The fallback model is not counted.',
  'Participants are split between arms by the randomisation weights (equal when the study sets none).',
];

export function tokensOf(chars: number): number {
  return Math.ceil(Math.max(0, chars) / CHARS_PER_TOKEN);
}

/** What the deployment uses where an arm sets nothing. */
export interface EstimateDefaults {
  model: string;
  /** The experiment's reply-token limit (it caps every arm's). */
  replyTokenLimit: number;
  thinkingBudget: number;
}

/** One chat a participant of the arm has: its prompt and completion rule. */
export interface ChatPlan {
  settings: ChatModelSettings | undefined;
  /** The system prompt as sent, pipes at their estimate. */
  promptChars: number;
  rounds: number;
  points: number;
}

/** One AI text step a participant of the arm sees: one call. */
export interface TextPlan {
  settings: ChatModelSettings | undefined;
  promptChars: number;
  maxChars: number;
}

export interface ArmPlan {
  condition: string;
  label: string;
  /** This arm's weight in randomisation (shares are weight / sum). */
  weight: number;
  chats: ChatPlan[];
  texts: TextPlan[];
}

/** The tokens of one call, by kind as billed with the cache (uncached: all input at the input price). */
export type CallTokens = Required<TokenUsage>;

/** Characters per participant message: the points rule's need spread over the rounds, at least MIN_MESSAGE_CHARS. */
export function messageChars(rounds: number, points: number): number {
  const needed = Math.max(0, 2 * (points - rounds * 10)); // points = rounds x 10 + chars x 0.5
  return Math.max(MIN_MESSAGE_CHARS, Math.ceil(needed / Math.max(1, rounds)));
}

/**
 * A chat's calls: the opening (the prompt alone) and one per round, each sending the prompt and the conversation
 * so far. With caching (Anthropic's breakpoints on the system prompt and the last message; OpenAI's prefix cache),
 * a call reads the previous call's whole input from the cache and writes the rest of its own.
 */
export function chatCalls(input: {
  promptTokens: number;
  rounds: number;
  messageTokens: number;
  replyTokens: number;
  caching: boolean;
}): CallTokens[] {
  const { promptTokens, messageTokens, replyTokens, caching } = input;
  const calls: CallTokens[] = [];
  let previous = 0;
  for (let k = 0; k <= input.rounds; k++) {
    const inputTokens =
      k === 0 ? promptTokens : promptTokens + replyTokens + (k - 1) * (messageTokens + replyTokens) + messageTokens;
    const cacheReadTokens = caching && k > 0 && previous >= CACHE_MIN_TOKENS ? previous : 0;
    const cacheWriteTokens = caching && inputTokens >= CACHE_MIN_TOKENS ? inputTokens - cacheReadTokens : 0;
    calls.push({ inputTokens, outputTokens: replyTokens, cacheWriteTokens, cacheReadTokens });
    previous = inputTokens;
  }
  return calls;
}

interface Priced {
  model: string;
  price: ReturnType<typeof priceFor>;
}

function modelOf(settings: ChatModelSettings | undefined, defaults: EstimateDefaults, prices: PriceTable): Priced {
  const provider = (settings as { provider?: string } | undefined)?.provider;
  const model = provider === 'scripted' ? 'scripted-offline' : (settings?.model ?? defaults.model);
  const price = settings?.price ? cachePrices(settings.price, model) : priceFor(model, prices);
  return { model, price };
}

function outputTokens(settings: ChatModelSettings | undefined, model: string, d: EstimateDefaults, most: number) {
  const cap = Math.min(settings?.replyTokens ?? d.replyTokenLimit, d.replyTokenLimit);
  const thinking = model.startsWith('claude-') ? (settings?.thinkingBudget ?? d.thinkingBudget) : 0;
  return Math.min(most, cap) + Math.max(0, thinking);
}

const caches = (model: string) => supportsPromptCaching(model) || supportsPromptCacheKey(model);

/** One arm's calls per participant, with each call's priced model. */
function armCalls(arm: ArmPlan, d: EstimateDefaults, prices: PriceTable) {
  const calls: { priced: Priced; cached: CallTokens; plain: CallTokens }[] = [];
  for (const chat of arm.chats) {
    const priced = modelOf(chat.settings, d, prices);
    const base = {
      promptTokens: tokensOf(chat.promptChars),
      rounds: chat.rounds,
      messageTokens: tokensOf(messageChars(chat.rounds, chat.points)),
      replyTokens: outputTokens(chat.settings, priced.model, d, EXPECTED_REPLY_TOKENS),
    };
    const cached = chatCalls({ ...base, caching: caches(priced.model) });
    const plain = chatCalls({ ...base, caching: false });
    cached.forEach((c, i) => calls.push({ priced, cached: c, plain: plain[i] ?? c }));
  }
  for (const text of arm.texts) {
    const priced = modelOf(text.settings, d, prices);
    const call: CallTokens = {
      inputTokens: tokensOf(text.promptChars),
      outputTokens: outputTokens(text.settings, priced.model, d, tokensOf(text.maxChars)),
      cacheWriteTokens: 0,
      cacheReadTokens: 0,
    };
    calls.push({ priced, cached: call, plain: call });
  }
  return calls;
}

const times = (pair: CostPair, n: number): CostPair => ({
  uncached: pair.uncached === null ? null : pair.uncached * n,
  cached: pair.cached === null ? null : pair.cached * n,
});

const plus = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);

/** One arm's estimate at its share of the sample. */
function estimateArm(arm: ArmPlan, share: number, sample: number, d: EstimateDefaults, prices: PriceTable) {
  const calls = armCalls(arm, d, prices);
  const unpriced = [...new Set(calls.filter((c) => c.priced.price === null).map((c) => c.priced.model))];
  let uncached = 0;
  let cached = 0;
  for (const c of calls) {
    if (c.priced.price === null) continue;
    uncached += costOf(c.plain, c.priced.price);
    cached += costOf(c.cached, c.priced.price);
  }
  const perParticipant: CostPair = unpriced.length > 0 ? { uncached: null, cached: null } : { uncached, cached };
  const participants = share * sample;
  return {
    condition: arm.condition,
    label: arm.label,
    share,
    participants,
    models: [...new Set(calls.map((c) => c.priced.model))],
    unpriced,
    calls: calls.length,
    inputTokens: calls.reduce((s, c) => s + c.plain.inputTokens, 0),
    outputTokens: calls.reduce((s, c) => s + c.plain.outputTokens, 0),
    perParticipant,
    total: times(perParticipant, participants),
  } satisfies CostEstimateArm;
}

/** The estimate for every arm at the sample size, their total and the cost per participant over the sample. */
export function estimateCost(
  arms: readonly ArmPlan[],
  defaults: EstimateDefaults,
  prices: PriceTable,
  sample: number,
): CostEstimateReply {
  const weights = arms.reduce((s, a) => s + Math.max(0, a.weight), 0);
  const estimated = arms.map((arm) =>
    estimateArm(arm, weights > 0 ? Math.max(0, arm.weight) / weights : 0, sample, defaults, prices),
  );
  const total = estimated.reduce<CostPair>(
    (sum, arm) => ({ uncached: plus(sum.uncached, arm.total.uncached), cached: plus(sum.cached, arm.total.cached) }),
    { uncached: 0, cached: 0 },
  );
  return { sample, arms: estimated, total, perParticipant: times(total, 1 / sample), assumptions: [...ASSUMPTIONS] };
}

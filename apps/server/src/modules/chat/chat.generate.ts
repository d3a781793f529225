import { CHAT_BUSY_TEXT, type ChatCloseReason, type ChatRule, type FlowModel } from '@studychat/contracts';
import { AppError } from '../../lib/errors.js';
import type { ChatModel, ChatReplyInfo, ChatRequest, ChatTurn } from '../../llm/chat-model.js';
import { ChatModelError } from '../../llm/errors.js';
import { alternateTurns, fitHistory } from '../../llm/history.js';
import { modelFor } from '../../llm/model-choice.js';
import { modelSettings } from '../../llm/model-settings.js';
import {
  costOf,
  maxInputPerMTok,
  noPriceMessage,
  priceFor,
  uncachedInputTokens,
  type ModelPrice,
} from '../../llm/pricing.js';
import { estimateInputTokens, replyUsage } from '../../llm/usage.js';
import { reachedLimit } from './chat-limits.js';
import { toProgress, type ProgressRow } from '../journey/chat-facts.js';
import type { ChatArmSettings } from './chat-arm.js';
import { chatCompletedBy, closeChat } from './chat-journey.js';
import { experimentSpentUsd, releaseReplyLease, renewReplyLease } from './chat.repository.js';
import type { ChatContext } from './chat.service.js';
import type { ReplySink } from './chat.stream.js';
import { storeFinishedReply } from './reply-store.js';
import { replyPrice } from './spend.js';
import { inTurn, type TurnStats } from './provider-queue.js';

/** While a reply waits its turn, the busy event is sent again this often (it also keeps the stream from idling). */
const BUSY_EVERY_MS = 15_000;

/** The tokens a call counts against a tokens-per-minute limit: input not read from the cache, and output. */
function windowTokens(info: ChatReplyInfo): number | null {
  if (info.inputTokens === null || info.outputTokens === null) return null;
  return info.inputTokens - (info.cacheReadTokens ?? 0) + info.outputTokens;
}

/** Streams into an opened event stream; the route opens the stream only after every check has passed. */
export type StreamRunner = (sink: ReplySink) => Promise<void>;

/** What the participant reads when the model fails; the details stay in the stored message and the log. */
export const MODEL_ERRORS = {
  unavailable: 'The assistant is not available right now. Please wait a moment and send your message again.',
  interrupted: "The assistant's reply was interrupted. Please send your message again.",
  rejected: 'The assistant could not answer this message. Please try again, perhaps in different words.',
  notSaved: 'Something went wrong while saving this reply. Please send your message again.',
  initial: 'The assistant could not start the conversation.',
} as const;

const NO_CONDITION = 'This thread has no valid condition.';

function participantError(error: unknown): string {
  if (!(error instanceof ChatModelError)) return MODEL_ERRORS.unavailable;
  if (error.afterFirstToken) return MODEL_ERRORS.interrupted;
  return error.failure === 'rejected' ? MODEL_ERRORS.rejected : MODEL_ERRORS.unavailable;
}

/** A reply's request to the model, built before the call so its spend can be reserved first (spend.ts). */
export interface ReplyPlan {
  request: ChatRequest;
  /** The arm's provider's model (llm/model-choice.ts): the deployment's unless the arm names another provider. */
  model: ChatModel;
  /** The model asked: the condition's, else the deployment's. */
  askedModel: string;
  /** The condition's own price for its model, if it gives one. */
  ownPrice: ModelPrice | undefined;
  /** The price the call is reserved at (the asked model's, or its fallback's if dearer). */
  price: ModelPrice;
  /** The condition's fallback model, priced from the table (docs/decisions/0076); null: none. */
  fallback: string | null;
}

/**
 * The request for the condition's prompt, scripted texts and model settings, with the history fitted to the
 * experiment's limit. A condition the study does not have is refused (403), and so is a model with no known
 * price (503: refused at start and when the version was saved or pinned, so only a misconfiguration gets here).
 */
export function planReply(
  ctx: ChatContext,
  state: { thread: { id: string; condition: string }; limits: ChatContext['defaults']; arm: ChatArmSettings | null },
  history: ChatTurn[],
): ReplyPlan {
  // The prompt and scripted texts of the study version the experiment runs (chat-arm.ts).
  const chat = state.arm;
  if (!chat) throw new AppError(403, 'NO_CONDITION', NO_CONDITION);
  const { condition } = chat;
  const settings: FlowModel | undefined = chat.settings;
  const request: ChatRequest = {
    system: chat.systemPrompt,
    script: chat.scripted,
    history: fitHistory(chat.systemPrompt, alternateTurns(history), state.limits.historyTokens),
    condition,
    // The thread's conversation keeps one prompt-cache key (OpenAI), so each turn reads the last one's prefix.
    cacheKey: state.thread.id,
    ...modelSettings(settings, state.limits.replyTokens),
  };
  const llm = modelFor(ctx.deps, settings?.provider);
  if (!llm) {
    ctx.log.error({ provider: settings?.provider }, 'the study names a provider this deployment has no key for');
    throw new AppError(503, 'MODEL_UNAVAILABLE', MODEL_ERRORS.unavailable);
  }
  const askedModel = settings?.model ?? llm.model;
  const price = replyPrice(settings?.price, { asked: askedModel }, ctx.prices);
  if (!price) {
    ctx.log.error({ model: askedModel }, noPriceMessage(askedModel, 'study'));
    throw new AppError(503, 'MODEL_UNAVAILABLE', MODEL_ERRORS.unavailable);
  }
  const fallback = settings?.fallbackModel ?? null;
  const fallbackPrice = fallback === null ? null : priceFor(fallback, ctx.prices);
  if (fallback !== null && !fallbackPrice) {
    ctx.log.error({ model: fallback }, noPriceMessage(fallback));
    throw new AppError(503, 'MODEL_UNAVAILABLE', MODEL_ERRORS.unavailable);
  }
  // The reservation covers whichever of the two answers.
  const reserved =
    fallbackPrice &&
    maxInputPerMTok(fallbackPrice) + fallbackPrice.outputPerMTok > maxInputPerMTok(price) + price.outputPerMTok
      ? fallbackPrice
      : price;
  return { request, model: llm, askedModel, ownPrice: settings?.price, price: reserved, fallback };
}

/** Overloaded (529): the fallback answers at once rather than after the set number of failures. */
const isOverloaded = (e: ChatModelError) => e.options.status === 529 || e.options.providerCode === 'overloaded_error';

/**
 * The condition's model, and its fallback model when it is overloaded or has failed `after` attempts in this reply
 * (before any text): `fallback.from` records the model it stood in for.
 */
export async function withFallback(
  plan: Pick<ReplyPlan, 'fallback' | 'askedModel'>,
  after: number,
  state: { failures: number; from: string | null },
  ask: (model: string | undefined) => Promise<ChatReplyInfo>,
): Promise<ChatReplyInfo> {
  if (plan.fallback === null) return ask(undefined);
  if (state.from !== null) return ask(plan.fallback);
  try {
    return await ask(undefined);
  } catch (error) {
    if (!(error instanceof ChatModelError) || error.afterFirstToken) throw error;
    if (!error.transient && !error.asksToWait) throw error;
    state.failures += error.attempts;
    if (!isOverloaded(error) && state.failures < after) throw error;
    state.from = plan.askedModel;
    return ask(plan.fallback);
  }
}

export interface Generation {
  state: {
    thread: { id: string; condition: string; experiment_id: string; user_id: string };
    limits: ChatContext['defaults'];
    /** The condition's prompt and settings in the experiment's study version. */
    arm: ChatArmSettings | null;
    /** The condition's completion rule. */
    rule: ChatRule;
  };
  leaseId: string;
  /** The reply's row, already stored as `streaming`. */
  messageId: string;
  /** The thread's rows before the reply's, as read under the lease with the ones this request added. */
  before: readonly ProgressRow[];
  plan: ReplyPlan;
  initial: boolean;
}

/** Failures where the provider refused the request before working on it (nothing is billed). */
const REFUSED: readonly string[] = ['rate_limited', 'quota', 'rejected', 'unavailable'];

/**
 * Whether the provider may have billed a failed call: not when it refused the request before any text;
 * otherwise (a time-out, a cut connection, text already sent) its usage is counted.
 */
function mayBeBilled(failure: unknown, text: string, info: Partial<ChatReplyInfo>): boolean {
  if (failure === null || text !== '' || info.inputTokens != null || info.outputTokens != null) return true;
  return !(failure instanceof ChatModelError && REFUSED.includes(failure.failure));
}

/**
 * Streams the model's reply to the sink and stores it with its model, tokens, cost, timings, stop
 * reason and thinking log. The text is saved as it streams (ctx.saver), so a process
 * that dies mid-reply leaves it behind to be marked interrupted. The model call is never aborted when
 * the browser leaves: the reply is still stored. The lease is renewed while the model works and
 * released at the end, whatever happens; a limit the reply reached closes the chat.
 */
export async function generate(ctx: ChatContext, g: Generation, sink: ReplySink): Promise<void> {
  const { db } = ctx.deps.database;
  const { thread } = g.state;
  const renew = setInterval(() => {
    const until = new Date(ctx.deps.clock().getTime() + ctx.leaseMs).toISOString();
    renewReplyLease(db, thread.id, g.leaseId, until).catch((error: unknown) =>
      ctx.log.error({ err: error, threadId: thread.id }, 'could not renew the reply lease'),
    );
  }, ctx.renewMs);
  renew.unref();

  const { request } = g.plan;
  const started = performance.now();
  let firstTokenMs: number | null = null;
  let text = '';
  let info: Partial<ChatReplyInfo>;
  let failure: unknown = null;
  const turn: TurnStats = { waitedMs: 0, waits: 0 };
  const fallback = { failures: 0, from: null as string | null };
  let busySince: number | null = null;
  try {
    info = await inTurn(
      {
        db,
        clock: ctx.deps.clock,
        newId: ctx.deps.newId,
        random: ctx.deps.random,
        sleep: ctx.sleep,
        limits: ctx.queue,
        provider: g.plan.model.provider,
        threadId: thread.id,
        leaseId: g.leaseId,
        tokens: estimateInputTokens(request.system, request.history),
        onWait: () => {
          // The participant sees that the assistant is busy, not an error (docs/decisions/0076).
          const now = ctx.deps.clock().getTime();
          if (busySince !== null && now - busySince < BUSY_EVERY_MS) return;
          busySince = now;
          sink.busy(CHAT_BUSY_TEXT);
        },
      },
      () =>
        withFallback(g.plan, ctx.fallbackAfter, fallback, (model) =>
          g.plan.model.streamReply({ ...request, ...(model ? { model } : {}), waitsItself: true }, (delta) => {
            firstTokenMs ??= Math.round(performance.now() - started);
            text += delta;
            sink.text(delta);
            ctx.saver.note(g.messageId, text);
          }),
        ),
      windowTokens,
      turn,
    );
  } catch (error) {
    failure = error;
    info = error instanceof ChatModelError ? error.partial : {};
    ctx.log.warn({ err: error, threadId: thread.id }, 'chat model failed');
  }

  try {
    // The final write comes after any save of the text so far, so it is never overwritten.
    await ctx.saver.forget(g.messageId);
    const empty = failure === null && text.trim() === '';
    const finalStatus: ProgressRow['status'] = failure !== null ? 'error' : empty ? 'empty' : 'complete';
    const model =
      info.model ?? (fallback.from !== null && g.plan.fallback !== null ? g.plan.fallback : g.plan.askedModel);
    // Counted as the provider bills it; a count it did not report is estimated (and flagged), so the token
    // limit and the budget still apply (docs/decisions/0073).
    const billed = mayBeBilled(failure, text, info);
    const thinking = (info.thinking ?? []).map((e) => (e.type === 'thinking' ? e.thinking : '')).join('');
    const usage = billed
      ? replyUsage(
          {
            inputTokens: info.inputTokens ?? null,
            outputTokens: info.outputTokens ?? null,
            cacheWriteTokens: info.cacheWriteTokens ?? null,
            cacheReadTokens: info.cacheReadTokens ?? null,
          },
          request,
          { text, thinking },
        )
      : null;
    // A fallback's reply is priced from the table (the condition's own price is its model's).
    const price =
      fallback.from !== null && g.plan.fallback !== null
        ? replyPrice(undefined, { answered: info.model, asked: g.plan.fallback }, ctx.prices)
        : replyPrice(g.plan.ownPrice, { answered: info.model, asked: g.plan.askedModel }, ctx.prices);
    const cost = usage ? costOf(usage, price ?? g.plan.price) : null;
    const reply = { role: 'assistant' as const, content: text, status: finalStatus };
    const tokensUsed = await storeFinishedReply(db, {
      messageId: g.messageId,
      changes: {
        content: text,
        status: finalStatus,
        error_message:
          failure !== null
            ? failure instanceof Error
              ? failure.message
              : String(failure)
            : empty
              ? 'The model answered with no text'
              : null,
        model_used: model,
        input_tokens: usage ? usage.inputTokens : null,
        output_tokens: usage ? usage.outputTokens : null,
        // Each kind of input token as billed (docs/decisions/0076); unknown when the provider gave no usage.
        uncached_input_tokens: usage && !usage.estimated ? uncachedInputTokens(usage) : null,
        cache_write_tokens: usage?.cacheWriteTokens ?? null,
        cache_read_tokens: usage?.cacheReadTokens ?? null,
        queue_ms: turn.waits > 0 ? turn.waitedMs : null,
        fallback_from: fallback.from,
        usage_estimated: usage?.estimated ?? false,
        cost_usd: cost,
        first_token_ms: firstTokenMs,
        total_ms: Math.round(performance.now() - started),
        stop_reason: info.stopReason ?? null,
        thinking_log: info.thinking && info.thinking.length > 0 ? JSON.stringify(info.thinking) : null,
        created_at: ctx.deps.clock().toISOString(),
      },
      threadId: thread.id,
      tokens: usage ? usage.inputTokens + usage.outputTokens : 0,
      cacheWriteTokens: usage?.cacheWriteTokens ?? 0,
      cacheReadTokens: usage?.cacheReadTokens ?? 0,
      costUsd: cost ?? 0,
      chatComplete: chatCompletedBy(thread, g.before, reply, g.state.rule, ctx.deps.clock()),
    });
    const after = { tokensUsed, userMessages: [...g.before, reply].filter((r) => r.role === 'user').length };
    if (failure !== null) sink.error(g.initial ? MODEL_ERRORS.initial : participantError(failure));
    // An empty greeting is not replayed: the page shows its canned one and the next request tries again.
    else if (empty && g.initial) sink.error(MODEL_ERRORS.initial);
    const closedBy = await closeIfLimitReached(ctx, g, after);
    // Where the reply left the chat, so the page needs no read after it (contracts' chat-stream.ts).
    const { limits } = g.state;
    sink.progress({
      progress: { ...toProgress([...g.before, reply], g.state.rule), closed: closedBy ? { reason: closedBy } : null },
      limits: {
        maxMessageChars: limits.maxMessageChars,
        messagesLeft: Math.max(0, limits.maxMessages - after.userMessages),
      },
    });
  } catch (error) {
    ctx.log.error({ err: error, threadId: thread.id }, 'could not store the assistant message');
    sink.error(MODEL_ERRORS.notSaved);
  } finally {
    clearInterval(renew);
    await releaseReplyLease(db, thread.id, g.leaseId, ctx.deps.clock().toISOString()).catch((error: unknown) =>
      ctx.log.error({ err: error, threadId: thread.id }, 'could not release the reply lease'),
    );
    sink.done();
  }
}

/**
 * After a reply: a limit it reached ends the chat now, so the page shows it without another try. The counts
 * are those the reply's own transaction saw (the lease keeps anything else from writing to the thread).
 */
async function closeIfLimitReached(
  ctx: ChatContext,
  g: Generation,
  after: { tokensUsed: number; userMessages: number },
): Promise<Exclude<ChatCloseReason, 'completed'> | null> {
  const { db } = ctx.deps.database;
  const { thread, limits } = g.state;
  const reason = reachedLimit(limits, {
    userMessages: after.userMessages,
    tokensUsed: after.tokensUsed,
    experimentSpentUsd: limits.budgetUsd === null ? null : await experimentSpentUsd(db, thread.experiment_id),
  });
  if (reason !== null) await closeChat(db, thread, reason, g.state.rule, ctx.deps.clock());
  return reason;
}

import {
  CHAT_CLOSED_TEXT,
  messageLength,
  messageTooLongText,
  type ChatClosure,
  type ChatLimits,
  type ChatLimitsView,
  type ChatProgress,
  type ChatRule,
  type InitiateReply,
  type ThreadMessagesReply,
} from '@studychat/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import type { ChatMessageRow, ChatThreadRow, DB } from '../../db/schema.js';
import { toIso, toNumber } from '../../db/values.js';
import type { AppDeps } from '../../lib/deps.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { PriceTable } from '../../llm/pricing.js';
import { EXPERIMENT_NOT_FOUND } from '../experiments/experiments.service.js';
import { chatStepOf, flowWrite, journeyWrite } from '../journey/journey.service.js';
import { reachedLimit, resolveChatLimits } from './chat-limits.js';
import { closeChat } from './chat-journey.js';
import { chatArmOf, type ChatArmSettings } from './chat-arm.js';
import { generate, MODEL_ERRORS, planReply, type ReplyPlan, type StreamRunner } from './chat.generate.js';
import {
  isCompleteGreeting,
  isInitial,
  shownToParticipant,
  threadTitle,
  toChatMessage,
  toHistory,
} from './chat.mapper.js';
import { toProgress } from '../journey/chat-facts.js';
import {
  experimentSpentUsd,
  insertMessage,
  insertMessages,
  insertThreadIfAbsent,
  listThreadMessages,
  markStreamingInterrupted,
  readThread,
  releaseReplyLease,
  setThreadTitle,
  tryTakeReplyLease,
  type ThreadRead,
} from './chat.repository.js';

import type { PartialSaver } from './partial-saver.js';
import type { QueueLimits } from './provider-queue.js';
import { maxCallCostUsd, reserveSpend } from './spend.js';

export { MODEL_ERRORS, type StreamRunner } from './chat.generate.js';
/** The tokens and cost of participants' chats (a pilot run's report, issue 35). */
export { usageByUser as chatUsageByUser } from './chat.repository.js';

export interface ChatContext {
  deps: AppDeps;
  prices: PriceTable;
  /** The environment's limits, for experiments that set none of their own. */
  defaults: ChatLimits;
  /** A reply lease lasts this long unless renewed: a crashed holder is noticed within it. */
  leaseMs: number;
  /** How often a live holder renews its lease. */
  renewMs: number;
  /** Saves the text streamed so far of every reply in the process, one statement per save (partial-saver.ts). */
  saver: PartialSaver;
  /** How often a second initial-message request checks whether the first one has finished. */
  pollMs: number;
  /** How long a second initial-message request waits for a live first one before giving up (409). */
  maxWaitMs: number;
  /** The provider's shared rate limit (provider-queue.ts, docs/decisions/0076). */
  queue: QueueLimits;
  /** Waits between asks for a turn at the provider. */
  sleep: (ms: number) => Promise<void>;
  /** Failed attempts of a condition's model in a reply before its fallback model answers. */
  fallbackAfter: number;
  log: FastifyBaseLogger;
}

export const NO_CONDITION_MESSAGE =
  'You have not been assigned to a study condition yet, so the chat is not available. Please complete the earlier steps first.';
export const REPLY_IN_PROGRESS_MESSAGE =
  'Please wait for the assistant to finish its reply before sending another message.';
export const THREAD_NOT_FOUND = 'Chat thread not found';
/** While replies in flight hold what is left of the budget (docs/decisions/0073). */
export const BUDGET_BUSY_MESSAGE = 'The assistant is busy right now. Please wait a moment and send your message again.';
/**
 * Greetings generated at most this often per thread: after that the page shows its canned greeting and the
 * chat goes on (a greeting the provider keeps cutting off is not paid for on every page load).
 */
export const MAX_GREETING_ATTEMPTS = 3;
/** Stored on a reply whose writer died (its lease lapsed) before it finished. */
export const INTERRUPTED_REASON = 'The server stopped while writing this reply; the text saved so far is kept.';

/** A thread with what its rules depend on. */
interface ThreadState {
  thread: ChatThreadRow;
  limits: ChatLimits;
  /** The participant's completion is recorded: the chat is closed to them. */
  completed: boolean;
  /** The condition's prompt, scripted texts and model settings in the experiment's study (null: not declared). */
  arm: ChatArmSettings | null;
  /** When the chat is complete in the thread's condition (the study's rule, or the spec's). */
  rule: ChatRule;
}

/** The thread's state and its messages, from one read (readThread), with the experiment's study. */
async function stateOf(ctx: ChatContext, read: ThreadRead): Promise<{ state: ThreadState; rows: ChatMessageRow[] }> {
  if (!read.overrides) throw notFound(EXPERIMENT_NOT_FOUND);
  const limits = resolveChatLimits(ctx.defaults, read.overrides);
  const { arm, rule } = await chatArmOf(ctx.deps, read.thread);
  return {
    state: { thread: read.thread, limits, completed: read.completedAt !== null, arm, rule },
    rows: read.messages,
  };
}

/** The caller's own thread (404 for another's, or none). */
async function ownThread(
  ctx: ChatContext,
  userId: string,
  threadId: string,
): Promise<{ state: ThreadState; rows: ChatMessageRow[] }> {
  const read = await readThread(ctx.deps.database.db, { threadId, userId });
  if (!read) throw notFound(THREAD_NOT_FOUND);
  return stateOf(ctx, read);
}

const userMessages = (rows: readonly ChatMessageRow[]) => rows.filter((r) => r.role === 'user').length;

/**
 * Why the chat is closed to the participant, if it is: their completion, or a limit. A limit found
 * reached is recorded on the thread, so the chat stays ended (and Proceed stays open) whatever happens
 * to the limits later.
 */
async function closureOf(
  ctx: ChatContext,
  state: ThreadState,
  rows: readonly ChatMessageRow[],
): Promise<ChatClosure | null> {
  if (state.completed) return { reason: 'completed' };
  const stored = state.thread.closed_reason;
  if (stored === 'message_limit' || stored === 'token_limit' || stored === 'budget') return { reason: stored };
  const { db } = ctx.deps.database;
  const reason = reachedLimit(state.limits, {
    userMessages: userMessages(rows),
    tokensUsed: toNumber(state.thread.tokens_used),
    experimentSpentUsd:
      state.limits.budgetUsd === null ? null : await experimentSpentUsd(db, state.thread.experiment_id),
  });
  if (reason === null) return null;
  await closeChat(db, state.thread, reason, state.rule, ctx.deps.clock());
  return { reason };
}

function chatClosed(closure: ChatClosure): AppError {
  return new AppError(409, 'CHAT_CLOSED', CHAT_CLOSED_TEXT[closure.reason]);
}

function limitsView(limits: ChatLimits, rows: readonly ChatMessageRow[]): ChatLimitsView {
  return {
    maxMessageChars: limits.maxMessageChars,
    messagesLeft: Math.max(0, limits.maxMessages - userMessages(rows)),
  };
}

function leaseLive(ctx: ChatContext, thread: ChatThreadRow): boolean {
  return (
    thread.reply_lock_id !== null &&
    thread.reply_lock_until !== null &&
    toIso(thread.reply_lock_until) >= ctx.deps.clock().toISOString()
  );
}

/** Replies left `streaming` by a holder whose lease lapsed become `interrupted`; returns the rows as they now are. */
async function settleDeadReplies(
  ctx: ChatContext,
  thread: ChatThreadRow,
  rows: ChatMessageRow[],
): Promise<ChatMessageRow[]> {
  if (leaseLive(ctx, thread) || !rows.some((r) => r.status === 'streaming')) return rows;
  await markStreamingInterrupted(ctx.deps.database.db, thread.id, INTERRUPTED_REASON);
  return listThreadMessages(ctx.deps.database.db, thread.id);
}

async function progressOf(ctx: ChatContext, state: ThreadState, rows: ChatMessageRow[]): Promise<ChatProgress> {
  return { ...toProgress(rows, state.rule), closed: await closureOf(ctx, state, rows) };
}

/**
 * Starts the participant's chat for an experiment at the chat step (after every section is read on the
 * server's clock), or returns the thread they already have; a new thread logs `chat_started`.
 */
export async function initiateChat(ctx: ChatContext, userId: string, experimentId: string): Promise<InitiateReply> {
  const insertThread = async (trx: Transaction<DB>, condition: string | null, now: Date) => {
    if (!condition) throw new AppError(403, 'NO_CONDITION', NO_CONDITION_MESSAGE);
    const id = ctx.deps.newId();
    const iso = now.toISOString();
    const thread = { id, userId, experimentId, condition, title: threadTitle(condition, iso), now: iso };
    // The gate's lock and its repeat check (a thread already started is a repeat) mean the insert always
    // finds no thread; if it ever did, the write is refused whole.
    if (!(await insertThreadIfAbsent(trx, thread))) throw new Error('the chat thread was not inserted');
    return { type: 'chat_started' as const, data: { threadId: id } };
  };
  const flow = await ctx.deps.flows(experimentId);
  const chatStep = flow ? chatStepOf(flow) : undefined;
  if (flow) {
    // A flow's chat step (issue 30): started once, at that step, through the flow's gate.
    await flowWrite(ctx.deps, { userId, experimentId, stepId: chatStep?.id ?? 'chat' }, async ({ trx, state, now }) =>
      state.facts.chat.threadId !== null
        ? { result: undefined }
        : { result: undefined, event: await insertThread(trx, state.facts.records.condition, now) },
    );
  } else {
    await journeyWrite(
      ctx.deps,
      { userId, experimentId, write: { kind: 'chat_start' } },
      {
        repeat: async () => undefined,
        apply: async ({ trx, state, now }) => ({
          result: undefined,
          event: await insertThread(trx, state.records.condition, now),
        }),
      },
    );
  }
  const read = await readThread(ctx.deps.database.db, { userId, experimentId });
  if (!read) throw new Error('chat thread missing right after insert');
  const { state, rows } = await stateOf(ctx, read);
  return {
    threadId: state.thread.id,
    progress: await progressOf(ctx, state, rows),
    limits: limitsView(state.limits, rows),
    messageCount: rows.filter(shownToParticipant).length,
  };
}

/** The thread's messages as the participant saw them, with progress, limits and whether a reply is being written. */
export async function getThreadMessages(
  ctx: ChatContext,
  userId: string,
  threadId: string,
): Promise<ThreadMessagesReply> {
  const read = await ownThread(ctx, userId, threadId);
  const { state } = read;
  const rows = await settleDeadReplies(ctx, state.thread, read.rows);
  return {
    threadId: state.thread.id,
    messages: rows.filter(shownToParticipant).map(toChatMessage),
    progress: await progressOf(ctx, state, rows),
    limits: limitsView(state.limits, rows),
    replying: leaseLive(ctx, state.thread),
  };
}

const replay =
  (text: string | null): StreamRunner =>
  async (sink) => {
    if (text) sink.text(text);
    else sink.error(MODEL_ERRORS.initial);
    sink.done();
  };

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Takes the thread's reply lease and reads the messages under it (no other reply adds a row meanwhile);
 * replies a dead holder left half written become `interrupted`. Null when another holder has the lease.
 */
async function takeLease(
  ctx: ChatContext,
  thread: ChatThreadRow,
): Promise<{ leaseId: string; rows: ChatMessageRow[] } | null> {
  const { db } = ctx.deps.database;
  const leaseId = ctx.deps.newId();
  const now = ctx.deps.clock();
  const until = new Date(now.getTime() + ctx.leaseMs).toISOString();
  if (!(await tryTakeReplyLease(db, thread.id, leaseId, now.toISOString(), until))) return null;
  const rows = await listThreadMessages(db, thread.id);
  if (!rows.some((r) => r.status === 'streaming')) return { leaseId, rows };
  await markStreamingInterrupted(db, thread.id, INTERRUPTED_REASON);
  return { leaseId, rows: await listThreadMessages(db, thread.id) };
}

/**
 * The initial assistant message: generated once and stored when complete, then replayed on every later
 * request. A cut or empty greeting is never replayed: the next request generates it again, up to
 * MAX_GREETING_ATTEMPTS in all (then the page shows its canned greeting). Each attempt reserves its spend and
 * counts against the limits as a reply does. A request that arrives while another is generating it waits for
 * that one (polling the database, so this holds across processes) and replays the result; if that one's process
 * died, it takes over within a lease.
 */
export async function prepareInitialMessage(ctx: ChatContext, userId: string, threadId: string): Promise<StreamRunner> {
  const { db } = ctx.deps.database;
  const first = await ownThread(ctx, userId, threadId);
  const { state } = first;
  const { thread } = state;
  const maxPolls = Math.ceil(ctx.maxWaitMs / ctx.pollMs);
  for (let poll = 0; ; poll += 1) {
    const rows = poll === 0 ? first.rows : await listThreadMessages(db, thread.id);
    const greeting = rows.find(isCompleteGreeting);
    if (greeting) return replay(greeting.content);
    // No greeting, but the chat went on (the page showed the canned one): the first thing the assistant said.
    if (rows.some((r) => r.role === 'user')) {
      return replay(rows.find((r) => r.role === 'assistant' && r.status === 'complete')?.content ?? null);
    }
    const closure = await closureOf(ctx, state, rows);
    if (closure) throw chatClosed(closure);
    if (greetingAttempts(rows) >= MAX_GREETING_ATTEMPTS) return replay(null);
    const lease = await takeLease(ctx, thread);
    if (lease) {
      const { leaseId, rows: held } = lease;
      const now = ctx.deps.clock().toISOString();
      // Someone may have finished, or made the last attempt, between our read and our lease.
      if (held.some(isCompleteGreeting) || greetingAttempts(held) >= MAX_GREETING_ATTEMPTS) {
        await releaseReplyLease(db, thread.id, leaseId, now);
        continue;
      }
      const plan = await underLease(ctx, state, leaseId, async () => {
        const planned = planReply(ctx, state, []);
        await reserve(ctx, state, leaseId, planned);
        return planned;
      });
      const messageId = ctx.deps.newId();
      // Read under the lease: no other reply can add a row before ours.
      const position = held.reduce((max, r) => Math.max(max, r.position + 1), 0);
      await underLease(ctx, state, leaseId, () =>
        insertMessage(db, placeholder(messageId, thread.id, position, true, now)),
      );
      return (sink) => generate(ctx, { state, leaseId, messageId, before: held, plan, initial: true }, sink);
    }
    if (poll >= maxPolls) throw new AppError(409, 'REPLY_IN_PROGRESS', REPLY_IN_PROGRESS_MESSAGE);
    await wait(ctx.pollMs);
  }
}

/** The reply's row, stored before the model is called and filled in as the text streams. */
function placeholder(id: string, threadId: string, position: number, initial: boolean, now: string) {
  return {
    id,
    thread_id: threadId,
    position,
    role: 'assistant' as const,
    content: '',
    is_initial: initial,
    status: 'streaming' as const,
    created_at: now,
  };
}

/**
 * A participant's message: refused when the chat is closed (409 CHAT_CLOSED), longer than the
 * experiment allows (400 MESSAGE_TOO_LONG, never cut), while another reply is streaming in this
 * thread (409), or while replies in flight hold what is left of the budget (409 BUDGET_BUSY); otherwise its
 * spend is reserved and it is stored, with the reply's row, before the model is called, then answered.
 */
export async function prepareReply(
  ctx: ChatContext,
  userId: string,
  threadId: string,
  message: string,
): Promise<StreamRunner> {
  const { db } = ctx.deps.database;
  const { state, rows: before } = await ownThread(ctx, userId, threadId);
  const { thread } = state;
  const closure = await closureOf(ctx, state, before);
  if (closure) throw chatClosed(closure);
  const length = messageLength(message);
  if (length > state.limits.maxMessageChars) {
    throw new AppError(400, 'MESSAGE_TOO_LONG', messageTooLongText(length, state.limits.maxMessageChars));
  }
  const lease = await takeLease(ctx, thread);
  if (!lease) throw new AppError(409, 'REPLY_IN_PROGRESS', REPLY_IN_PROGRESS_MESSAGE);
  const { leaseId, rows: held } = lease;
  const messageId = ctx.deps.newId();
  const now = ctx.deps.clock().toISOString();
  // Read under the lease: no other reply adds a row before ours.
  const position = held.reduce((max, r) => Math.max(max, r.position + 1), 0);
  const asked = { role: 'user' as const, content: message, status: 'complete' as const, is_initial: false };
  // Its spend reserved before anything is stored: a refused reply leaves no message behind.
  const plan = await underLease(ctx, state, leaseId, async () => {
    const planned = planReply(ctx, state, toHistory([...held, asked]));
    await reserve(ctx, state, leaseId, planned);
    return planned;
  });
  const sent = {
    id: ctx.deps.newId(),
    thread_id: thread.id,
    position,
    role: 'user' as const,
    content: message,
    is_initial: false,
    status: 'complete' as const,
    created_at: now,
  };
  await underLease(ctx, state, leaseId, async () => {
    // The message and the reply's row in one statement.
    await insertMessages(db, [sent, placeholder(messageId, thread.id, position + 1, false, now)]);
    if (userMessages(before) === 0) {
      await setThreadTitle(db, thread.id, threadTitle(thread.condition, toIso(thread.created_at), message));
    }
  });
  const rows = [...held, sent];
  return (sink) => generate(ctx, { state, leaseId, messageId, before: rows, plan, initial: false }, sink);
}

/** Greetings tried so far in the thread (one being written does not count until it ends). */
function greetingAttempts(rows: readonly ChatMessageRow[]): number {
  return rows.filter((r) => isInitial(r) && r.status !== 'streaming').length;
}

/** Runs a step of a reply's preparation under its lease, releasing the lease if the step throws. */
async function underLease<T>(
  ctx: ChatContext,
  state: ThreadState,
  leaseId: string,
  step: () => Promise<T>,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    await releaseReplyLease(ctx.deps.database.db, state.thread.id, leaseId, ctx.deps.clock().toISOString());
    throw error;
  }
}

/**
 * Reserves the call's maximum cost against the experiment's budget before the model is called (spend.ts). A
 * budget used up ends the chat (409 CHAT_CLOSED, the participant may proceed); one that replies in flight hold
 * is a 409 BUDGET_BUSY to try again once they are stored.
 */
async function reserve(ctx: ChatContext, state: ThreadState, leaseId: string, plan: ReplyPlan): Promise<void> {
  const { db } = ctx.deps.database;
  const check = await reserveSpend(db, {
    experimentId: state.thread.experiment_id,
    threadId: state.thread.id,
    leaseId,
    amountUsd: maxCallCostUsd(plan.model, plan.request, plan.price),
    budgetUsd: state.limits.budgetUsd,
    nowIso: ctx.deps.clock().toISOString(),
  });
  if (check === 'go') return;
  if (check === 'busy') throw new AppError(409, 'BUDGET_BUSY', BUDGET_BUSY_MESSAGE);
  await closeChat(db, state.thread, 'budget', state.rule, ctx.deps.clock());
  throw chatClosed({ reason: 'budget' });
}

import { studyDefinition, type InitiateReply, type ThreadMessagesReply } from '@studychat/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { ChatThreadRow } from '../../db/schema.js';
import type { AppDeps } from '../../lib/deps.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { ChatReplyInfo, ChatTurn } from '../../llm/chat-model.js';
import { ChatModelError } from '../../llm/errors.js';
import { costUsd, type PriceTable } from '../../llm/pricing.js';
import { isEmptyFailure, isInitial, toChatMessage, toCondition, toHistory, toProgress } from './chat.mapper.js';
import {
  findAssignedCondition,
  findOwnThread,
  findThreadFor,
  insertMessage,
  insertThreadIfAbsent,
  listThreadMessages,
  nextPosition,
  releaseReplyLease,
  renewReplyLease,
  tryTakeReplyLease,
} from './chat.repository.js';
import type { ReplySink } from './chat.stream.js';

export interface ChatContext {
  deps: AppDeps;
  prices: PriceTable;
  /** How long a reply lease lasts before another process may take the thread over; renewed while streaming. */
  leaseMs: number;
  /** How often a second initial-message request checks whether the first one has finished. */
  pollMs: number;
  log: FastifyBaseLogger;
}

/** Streams into an opened event stream; the route opens the stream only after every check has passed. */
export type StreamRunner = (sink: ReplySink) => Promise<void>;

export const NO_CONDITION_MESSAGE =
  'You have not been assigned to a study condition yet, so the chat is not available. Please complete the earlier steps first.';
export const REPLY_IN_PROGRESS_MESSAGE =
  'Please wait for the assistant to finish its reply before sending another message.';
export const THREAD_NOT_FOUND = 'Chat thread not found';

/** What the participant reads when the model fails; the details stay in the stored message and the log. */
export const MODEL_ERRORS = {
  unavailable: 'The assistant is not available right now. Please wait a moment and send your message again.',
  interrupted: "The assistant's reply was interrupted. Please send your message again.",
  rejected: 'The assistant could not answer this message. Please try again, perhaps in different words.',
  notSaved: 'Something went wrong while saving this reply. Please send your message again.',
  initial: 'The assistant could not start the conversation.',
} as const;

function participantError(error: unknown): string {
  if (!(error instanceof ChatModelError)) return MODEL_ERRORS.unavailable;
  if (error.afterFirstToken) return MODEL_ERRORS.interrupted;
  return error.failure === 'rejected' ? MODEL_ERRORS.rejected : MODEL_ERRORS.unavailable;
}

async function progressOf(ctx: ChatContext, threadId: string) {
  return toProgress(await listThreadMessages(ctx.deps.database.db, threadId));
}

/** Starts the participant's chat for an experiment, or returns the thread they already have. */
export async function initiateChat(ctx: ChatContext, userId: string, experimentId: string): Promise<InitiateReply> {
  const { db } = ctx.deps.database;
  const condition = await findAssignedCondition(db, userId, experimentId);
  if (!condition) throw new AppError(403, 'NO_CONDITION', NO_CONDITION_MESSAGE);
  let thread = await findThreadFor(db, userId, experimentId);
  if (!thread) {
    await insertThreadIfAbsent(db, {
      id: ctx.deps.newId(),
      userId,
      experimentId,
      condition,
      now: ctx.deps.clock().toISOString(),
    });
    thread = await findThreadFor(db, userId, experimentId);
  }
  if (!thread) throw new Error('chat thread missing right after insert');
  return { threadId: thread.id, progress: await progressOf(ctx, thread.id) };
}

async function ownThread(ctx: ChatContext, userId: string, threadId: string): Promise<ChatThreadRow> {
  const thread = await findOwnThread(ctx.deps.database.db, threadId, userId);
  if (!thread) throw notFound(THREAD_NOT_FOUND);
  return thread;
}

/** The thread's messages as the participant saw them (failures without text left out), with progress. */
export async function getThreadMessages(
  ctx: ChatContext,
  userId: string,
  threadId: string,
): Promise<ThreadMessagesReply> {
  const thread = await ownThread(ctx, userId, threadId);
  const rows = await listThreadMessages(ctx.deps.database.db, thread.id);
  return {
    threadId: thread.id,
    messages: rows.filter((r) => !isEmptyFailure(r)).map(toChatMessage),
    progress: toProgress(rows),
  };
}

const replay =
  (text: string | null): StreamRunner =>
  async (sink) => {
    if (text) sink.text(text);
    else sink.error(MODEL_ERRORS.initial);
    sink.done();
  };

function leaseUntil(ctx: ChatContext): string {
  return new Date(ctx.deps.clock().getTime() + ctx.leaseMs).toISOString();
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The initial assistant message: generated once and stored, then replayed on every later request.
 * A request that arrives while another is still generating it waits for that one (polling the
 * database, so this holds across processes) and replays the result.
 */
export async function prepareInitialMessage(ctx: ChatContext, userId: string, threadId: string): Promise<StreamRunner> {
  const { db } = ctx.deps.database;
  const thread = await ownThread(ctx, userId, threadId);
  const maxPolls = Math.ceil(ctx.leaseMs / ctx.pollMs);
  for (let poll = 0; ; poll += 1) {
    const rows = (await listThreadMessages(db, thread.id)).filter((r) => !isEmptyFailure(r));
    if (rows.length > 0) {
      // Normally the stored greeting; if it never got stored but the chat went on, the first thing the assistant said.
      const first = rows.find(isInitial) ?? rows.find((r) => r.role === 'assistant');
      return replay(first?.content ?? null);
    }
    const leaseId = ctx.deps.newId();
    if (await tryTakeReplyLease(db, thread.id, leaseId, ctx.deps.clock().toISOString(), leaseUntil(ctx))) {
      // Someone may have finished between our read and our lease.
      if ((await listThreadMessages(db, thread.id)).some((r) => !isEmptyFailure(r))) {
        await releaseReplyLease(db, thread.id, leaseId, ctx.deps.clock().toISOString());
        continue;
      }
      return (sink) => generate(ctx, { thread, leaseId, history: [], position: 0, initial: true }, sink);
    }
    if (poll >= maxPolls) throw new AppError(409, 'REPLY_IN_PROGRESS', REPLY_IN_PROGRESS_MESSAGE);
    await wait(ctx.pollMs);
  }
}

/**
 * A participant's message: taken only while no other reply is streaming in this thread (409 otherwise),
 * stored before the model is called, then answered.
 */
export async function prepareReply(
  ctx: ChatContext,
  userId: string,
  threadId: string,
  message: string,
): Promise<StreamRunner> {
  const { db } = ctx.deps.database;
  const thread = await ownThread(ctx, userId, threadId);
  const leaseId = ctx.deps.newId();
  if (!(await tryTakeReplyLease(db, thread.id, leaseId, ctx.deps.clock().toISOString(), leaseUntil(ctx)))) {
    throw new AppError(409, 'REPLY_IN_PROGRESS', REPLY_IN_PROGRESS_MESSAGE);
  }
  let position: number;
  let history: ChatTurn[];
  try {
    position = await nextPosition(db, thread.id);
    await insertMessage(db, {
      id: ctx.deps.newId(),
      thread_id: thread.id,
      position,
      role: 'user',
      content: message,
      is_initial: false,
      status: 'complete',
      created_at: ctx.deps.clock().toISOString(),
    });
    history = toHistory(await listThreadMessages(db, thread.id));
  } catch (error) {
    await releaseReplyLease(db, thread.id, leaseId, ctx.deps.clock().toISOString());
    throw error;
  }
  return (sink) => generate(ctx, { thread, leaseId, history, position: position + 1, initial: false }, sink);
}

interface Generation {
  thread: ChatThreadRow;
  leaseId: string;
  history: ChatTurn[];
  position: number;
  initial: boolean;
}

/**
 * Streams the model's reply to the sink and stores it with its model, tokens, cost, timings, stop
 * reason and thinking log. The model call is never aborted when the browser leaves: the reply is
 * still stored. The lease is renewed while streaming and released at the end, whatever happens.
 */
async function generate(ctx: ChatContext, g: Generation, sink: ReplySink): Promise<void> {
  const { db } = ctx.deps.database;
  const renew = setInterval(() => {
    renewReplyLease(db, g.thread.id, g.leaseId, leaseUntil(ctx)).catch((error: unknown) =>
      ctx.log.error({ err: error, threadId: g.thread.id }, 'could not renew the reply lease'),
    );
  }, ctx.leaseMs / 3);
  renew.unref();

  const condition = toCondition(g.thread.condition);
  const started = performance.now();
  let firstTokenMs: number | null = null;
  let text = '';
  let info: Partial<ChatReplyInfo>;
  let failure: unknown = null;
  try {
    if (!condition) throw new AppError(403, 'NO_CONDITION', NO_CONDITION_MESSAGE);
    info = await ctx.deps.llm.streamReply(
      { system: studyDefinition.chat.conditions[condition].systemPrompt, history: g.history, condition },
      (delta) => {
        firstTokenMs ??= Math.round(performance.now() - started);
        text += delta;
        sink.text(delta);
      },
    );
  } catch (error) {
    failure = error;
    info = error instanceof ChatModelError ? error.partial : {};
    ctx.log.warn({ err: error, threadId: g.thread.id }, 'chat model failed');
  }

  try {
    // A greeting that failed before any text is not stored, so the next request generates it afresh.
    if (!(g.initial && failure !== null && text === '')) {
      const model = info.model ?? ctx.deps.llm.model;
      const inputTokens = info.inputTokens ?? null;
      const outputTokens = info.outputTokens ?? null;
      await insertMessage(db, {
        id: ctx.deps.newId(),
        thread_id: g.thread.id,
        position: g.position,
        role: 'assistant',
        content: text,
        is_initial: g.initial,
        status: failure === null ? 'complete' : 'error',
        error_message: failure === null ? null : failure instanceof Error ? failure.message : String(failure),
        model_used: model,
        input_tokens: inputTokens,
        output_tokens: outputTokens,
        cost_usd: costUsd(model, inputTokens, outputTokens, ctx.prices),
        first_token_ms: firstTokenMs,
        total_ms: Math.round(performance.now() - started),
        stop_reason: info.stopReason ?? null,
        thinking_log: info.thinking && info.thinking.length > 0 ? JSON.stringify(info.thinking) : null,
        created_at: ctx.deps.clock().toISOString(),
      });
    }
    if (failure !== null) sink.error(g.initial ? MODEL_ERRORS.initial : participantError(failure));
  } catch (error) {
    ctx.log.error({ err: error, threadId: g.thread.id }, 'could not store the assistant message');
    sink.error(MODEL_ERRORS.notSaved);
  } finally {
    clearInterval(renew);
    await releaseReplyLease(db, g.thread.id, g.leaseId, ctx.deps.clock().toISOString()).catch((error: unknown) =>
      ctx.log.error({ err: error, threadId: g.thread.id }, 'could not release the reply lease'),
    );
    sink.done();
  }
}

import type { FastifyInstance } from 'fastify';
import { chatRoutes } from '@studychat/contracts';
import type { AppContext } from '../../lib/context.js';
import { route } from '../../lib/route.js';
import { mergePrices } from '../../llm/pricing.js';
import { caller } from '../../plugins/auth.js';
import {
  getThreadMessages,
  initiateChat,
  prepareInitialMessage,
  prepareReply,
  type ChatContext,
} from './chat.service.js';
import { openChatStream, type StreamOptions } from './chat.stream.js';
import { PartialSaver, savesPerStatement } from './partial-saver.js';
import { recordBlockedPaste } from '../journey/paste.service.js';

/** A reply lease lapses this long after its last renewal: a crashed holder is noticed within it. */
const REPLY_LEASE_MS = 10_000;
/** A live holder renews well inside the lease, so a busy event loop does not lose it. */
const LEASE_RENEW_MS = 2_500;
/**
 * The text streamed so far is saved at least this often (every reply of the process in one statement): a crash
 * loses about this much of a reply (docs/decisions/0014, 0058).
 */
const PERSIST_MS = 1_000;
const INITIAL_POLL_MS = 100;
/** A comment line this often keeps an event stream open through proxies and the server's idle time-out. */
const HEARTBEAT_MS = 15_000;
/** Longest a reply waits its turn at the provider when the settings give none (LLM_QUEUE_MAX_WAIT_MS). */
const DEFAULT_QUEUE_MAX_WAIT_MS = 90_000;

/** The participant's chat: thread, initial message and replies as event streams, and the stored messages. */
export function registerChatRoutes(app: FastifyInstance, ctx: AppContext): void {
  const chat: ChatContext = {
    deps: ctx.deps,
    prices: mergePrices(ctx.config.llm.prices),
    defaults: ctx.config.chatLimits,
    leaseMs: REPLY_LEASE_MS,
    renewMs: LEASE_RENEW_MS,
    saver: new PartialSaver(
      ctx.deps.database.db,
      ctx.deps.clock,
      PERSIST_MS,
      (error) => app.log.error({ err: error }, 'could not save the replies so far'),
      savesPerStatement(ctx.deps.database),
    ),
    pollMs: INITIAL_POLL_MS,
    // A live first request may take as long as the model's time-out after its retries.
    maxWaitMs: ctx.config.llm.timeoutMs + ctx.config.llm.retryBudgetMs,
    queue: {
      concurrency: ctx.config.llm.concurrency ?? null,
      tokensPerMinute: ctx.config.llm.tokensPerMinute ?? null,
      maxWaitMs: ctx.config.llm.queueMaxWaitMs ?? DEFAULT_QUEUE_MAX_WAIT_MS,
    },
    fallbackAfter: ctx.config.llm.fallbackAfter ?? 2,
    sleep: ctx.deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    log: app.log,
  };
  const guards = [ctx.guards.requireUser];
  // A stream is idle (and ended) only after the model has had its whole time-out and retries, and more.
  // The busy events sent while a reply waits its turn keep the stream from being idle meanwhile.
  const stream: StreamOptions = {
    heartbeatMs: HEARTBEAT_MS,
    idleMs: Math.max(120_000, ctx.config.llm.timeoutMs + ctx.config.llm.retryBudgetMs + 30_000),
  };

  route(app, chatRoutes.pasteBlocked, { guards }, (request) =>
    recordBlockedPaste(ctx.deps, caller(request).userId, request.body),
  );

  route(app, chatRoutes.initiate, { guards }, (request) =>
    initiateChat(chat, caller(request).userId, request.body.experimentId),
  );

  // A stream is sent from inside the handler, once what could refuse the request has been checked.
  route(app, chatRoutes.initialMessage, { guards }, async (request, reply) => {
    const run = await prepareInitialMessage(chat, caller(request).userId, request.params.threadId);
    await run(openChatStream(reply, stream));
  });

  route(app, chatRoutes.sendMessage, { guards }, async (request, reply) => {
    const run = await prepareReply(chat, caller(request).userId, request.params.threadId, request.body.message);
    await run(openChatStream(reply, stream));
  });

  route(app, chatRoutes.messages, { guards }, (request) =>
    getThreadMessages(chat, caller(request).userId, request.params.threadId),
  );
}

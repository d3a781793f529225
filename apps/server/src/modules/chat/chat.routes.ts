import type { FastifyInstance } from 'fastify';
import { chatRoutes } from '@studychat/contracts';
import type { AppContext } from '../../app.js';
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
import { openEventStream } from './chat.stream.js';

/** Long enough for a slow first token after retries; renewed every third of it while streaming. */
const MIN_LEASE_MS = 60_000;
const INITIAL_POLL_MS = 100;

/** The participant's chat: thread, initial message and replies as event streams, and the stored messages. */
export function registerChatRoutes(app: FastifyInstance, ctx: AppContext): void {
  const chat: ChatContext = {
    deps: ctx.deps,
    prices: mergePrices(ctx.config.llm.prices),
    leaseMs: Math.max(MIN_LEASE_MS, ctx.config.llm.timeoutMs + ctx.config.llm.retryBudgetMs),
    pollMs: INITIAL_POLL_MS,
    log: app.log,
  };
  const guards = [ctx.guards.requireUser];

  route(app, chatRoutes.initiate, { guards }, (request) =>
    initiateChat(chat, caller(request).userId, request.body.experimentId),
  );

  route(app, chatRoutes.initialMessage, { guards }, async (request, reply) => {
    const run = await prepareInitialMessage(chat, caller(request).userId, request.params.threadId);
    await run(openEventStream(reply));
  });

  route(app, chatRoutes.sendMessage, { guards }, async (request, reply) => {
    const run = await prepareReply(chat, caller(request).userId, request.params.threadId, request.body.message);
    await run(openEventStream(reply));
  });

  route(app, chatRoutes.messages, { guards }, (request) =>
    getThreadMessages(chat, caller(request).userId, request.params.threadId),
  );
}

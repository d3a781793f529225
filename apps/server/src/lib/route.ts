import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteBody, RouteDef, RouteParams, RouteQuery, RouteReply } from '@studychat/contracts';

export type TypedRequest<R> = FastifyRequest<{
  Params: RouteParams<R>;
  Querystring: RouteQuery<R>;
  Body: RouteBody<R>;
}>;

/** A request guard such as `requireUser` or `requireAdmin`: throws an AppError to refuse. */
export type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

export interface RouteOptions<R = unknown> {
  /** Guards, run before the body is validated. */
  guards?: Guard[];
  /** An admin action to record in the audit log once the handler has succeeded (plugins/audit.ts). */
  audit?: {
    action: string;
    target?: (request: TypedRequest<R>, result: RouteReply<R>) => { type: string; id: string } | undefined;
    details?: (request: TypedRequest<R>, result: RouteReply<R>) => Record<string, unknown>;
  };
}

/**
 * Registers a route from its contract: params, query and body are validated with the contract's zod
 * schemas and the reply is serialised through its reply schema. Handlers stay thin.
 */
export function route<R extends RouteDef>(
  app: FastifyInstance,
  def: R,
  options: RouteOptions<R>,
  handler: (request: TypedRequest<R>, reply: FastifyReply) => Promise<RouteReply<R>>,
): void {
  const status = def.status ?? 200;
  app.route({
    method: def.method,
    url: def.path,
    schema: {
      ...(def.params ? { params: def.params } : {}),
      ...(def.query ? { querystring: def.query } : {}),
      ...(def.body ? { body: def.body } : {}),
      ...(def.reply ? { response: { [status]: def.reply } } : {}),
    },
    // onRequest runs before the body is parsed and validated, so an anonymous caller gets 401, not 400.
    ...(options.guards?.length ? { onRequest: options.guards } : {}),
    handler: async (request, reply) => {
      const typed = request as unknown as TypedRequest<R>;
      const result = await handler(typed, reply);
      const { audit } = options;
      if (audit && reply.statusCode < 300) {
        await request.server.audit(request, {
          action: audit.action,
          target: audit.target?.(typed, result),
          details: audit.details?.(typed, result),
        });
      }
      if (reply.sent) return reply;
      // A handler may set its own status (e.g. 503 from health); otherwise the contract's status applies.
      if (reply.statusCode === 200) reply.code(status);
      return reply.send(result);
    },
  });
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../lib/deps.js';
import { forbidden, unauthenticated } from '../lib/errors.js';
import type { Guard } from '../lib/route.js';
import { isSessionActive } from '../modules/auth/session.repository.js';
import type { TokenSigner, VerifiedToken } from '../modules/auth/token.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller, set by the requireUser / requireAdmin guards. */
    auth: VerifiedToken | null;
  }
}

export interface Guards {
  requireUser: Guard;
  requireAdmin: Guard;
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/** Guards for every route: a valid, unrevoked token (401 otherwise); admin rights (403 otherwise). */
export function registerAuth(app: FastifyInstance, deps: AppDeps, signer: TokenSigner): Guards {
  app.decorateRequest('auth', null);

  const requireUser: Guard = async (request) => {
    const token = bearerToken(request);
    if (!token) throw unauthenticated();
    const now = deps.clock();
    const verified = await signer.verify(token, now);
    if (!verified) throw unauthenticated('Your session is invalid or has expired. Please log in again.');
    if (!(await isSessionActive(deps.database.db, verified.sessionId, now.toISOString()))) {
      throw unauthenticated('Your session has ended. Please log in again.');
    }
    request.auth = verified;
  };

  const requireAdmin: Guard = async (request, reply) => {
    await requireUser(request, reply);
    if (!request.auth?.isAdmin) throw forbidden('Admin access required');
  };

  return { requireUser, requireAdmin };
}

/** The authenticated caller; only valid behind a guard. */
export function caller(request: FastifyRequest): VerifiedToken {
  if (!request.auth) throw unauthenticated();
  return request.auth;
}

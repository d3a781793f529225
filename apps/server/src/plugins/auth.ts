import type { Role } from '@studychat/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../lib/deps.js';
import { AppError, forbidden, unauthenticated } from '../lib/errors.js';
import type { Guards } from '../lib/context.js';
import type { Guard } from '../lib/route.js';
import { sessionCacheOf, type ActiveSession } from '../modules/auth/session-cache.js';
import { SESSION_ENDED_MESSAGE, TOTP_ENROLMENT_MESSAGE } from '../modules/auth/session-messages.js';
import { findActiveSession } from '../modules/auth/session.repository.js';
import type { TokenSigner, VerifiedToken } from '../modules/auth/token.js';

export interface Caller extends VerifiedToken {
  /** Two-factor authentication is required and not set up yet: only enrolment and logout are open. */
  restricted: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller, set by the guards. */
    auth: Caller | null;
  }
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Guards for every route: a valid token (401 otherwise) whose session is active and belongs to the token's user
 * (401 otherwise), and the right role (403 otherwise). They are the only session check in the server. They run
 * before the body is parsed, so an anonymous caller never learns what a route expects.
 */
export function registerAuth(
  app: FastifyInstance,
  deps: AppDeps,
  signer: TokenSigner,
  /** Called for every authenticated participant request (the monitor's last seen). */
  onParticipant?: (userId: string) => Promise<void>,
): Guards {
  app.decorateRequest('auth', null);
  // A database that one server process owns sees every revocation in that process: its session check may be
  // cached there (docs/decisions/0040). A database several processes share is asked on every request.
  const cache = deps.database.sharedByProcesses ? null : sessionCacheOf(deps.database.db);

  const activeSession = async (token: VerifiedToken, now: Date): Promise<ActiveSession | undefined> => {
    const cached = cache?.get(token.sessionId, now);
    if (cached) return cached.userId === token.userId ? cached : undefined;
    const ticket = cache?.ticket();
    const session = await findActiveSession(deps.database.db, token.sessionId, now.toISOString());
    if (session && cache && ticket) cache.store(token.sessionId, session, ticket);
    return session?.userId === token.userId ? session : undefined;
  };

  const authenticate: Guard = async (request) => {
    const token = bearerToken(request);
    if (!token) throw unauthenticated();
    const now = deps.clock();
    const verified = await signer.verify(token, now);
    if (!verified) throw unauthenticated('Your session is invalid or has expired. Please log in again.');
    const session = await activeSession(verified, now);
    if (!session) throw unauthenticated(SESSION_ENDED_MESSAGE);
    request.auth = { ...verified, restricted: session.restricted };
    if (onParticipant && verified.role === 'participant') await onParticipant(verified.userId);
  };

  const requireRole = (roles: readonly Role[] | 'any', message: string): Guard => {
    return async (request, reply) => {
      await authenticate(request, reply);
      const auth = request.auth;
      if (!auth) throw unauthenticated();
      if (auth.restricted) throw new AppError(403, 'TOTP_ENROLMENT_REQUIRED', TOTP_ENROLMENT_MESSAGE);
      if (roles !== 'any' && !roles.includes(auth.role)) throw forbidden(message);
    };
  };

  return {
    requireUser: requireRole('any', ''),
    requireStaff: requireRole(['admin', 'analyst'], 'Admin access required'),
    requireAdmin: requireRole(['admin'], 'Admin access required'),
    requireSession: authenticate,
  };
}

/** The authenticated caller; only valid behind a guard. */
export function caller(request: FastifyRequest): Caller {
  if (!request.auth) throw unauthenticated();
  return request.auth;
}

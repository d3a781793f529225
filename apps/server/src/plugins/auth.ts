import type { Role } from '@studychat/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../lib/deps.js';
import { AppError, forbidden, unauthenticated } from '../lib/errors.js';
import type { Guard } from '../lib/route.js';
import { sessionCacheOf, type CachedSession } from '../modules/auth/session-cache.js';
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

export interface Guards {
  /** Any logged-in account (participant, analyst, admin). */
  requireUser: Guard;
  /** Admins and analysts: the admin area's read views and exports. */
  requireStaff: Guard;
  /** Admins only: edits, study logins, the audit log. */
  requireAdmin: Guard;
  /** Any logged-in account, even one whose session waits for two-factor enrolment (security routes, logout). */
  requireSession: Guard;
}

export const TOTP_ENROLMENT_MESSAGE =
  'Two-factor authentication is required for this account: set it up on the Security page first.';

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Guards for every route: a valid, unrevoked token (401 otherwise) and the right role (403 otherwise).
 * They run before the body is parsed, so an anonymous caller never learns what a route expects.
 */
export function registerAuth(
  app: FastifyInstance,
  deps: AppDeps,
  signer: TokenSigner,
  /** Called for every authenticated participant request (the monitor's last seen). */
  onParticipant?: (userId: string) => Promise<void>,
): Guards {
  app.decorateRequest('auth', null);
  // SQLite has one server process, which sees every revocation: its session check may be cached
  // (docs/decisions/0040-session-check-cache.md). PostgreSQL may have several: the database decides each time.
  const cache = deps.database.dialect === 'sqlite' ? sessionCacheOf(deps.database.db) : null;

  const activeSession = async (sessionId: string, userId: string, now: Date): Promise<CachedSession | undefined> => {
    const cached = cache?.get(sessionId, now);
    if (cached && cached.userId === userId) return cached;
    const ticket = cache?.ticket();
    const session = await findActiveSession(deps.database.db, sessionId, now.toISOString());
    if (session && cache && ticket) cache.store(sessionId, session, ticket);
    return session;
  };

  const authenticate: Guard = async (request) => {
    const token = bearerToken(request);
    if (!token) throw unauthenticated();
    const now = deps.clock();
    const verified = await signer.verify(token, now);
    if (!verified) throw unauthenticated('Your session is invalid or has expired. Please log in again.');
    const session = await activeSession(verified.sessionId, verified.userId, now);
    if (!session) throw unauthenticated('Your session has ended. Please log in again.');
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

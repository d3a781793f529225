import type { Role } from '@studychat/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../lib/deps.js';
import { AppError, forbidden, unauthenticated } from '../lib/errors.js';
import type { Guard } from '../lib/route.js';
import { sessionCacheOf, type CachedSession } from '../modules/auth/session-cache.js';
import {
  SESSION_ENDED_MESSAGE,
  SessionCheck,
  TOTP_ENROLMENT_MESSAGE,
  type SessionProbe,
} from '../modules/auth/session-check.js';
import { findActiveSession } from '../modules/auth/session.repository.js';
import type { TokenSigner, VerifiedToken } from '../modules/auth/token.js';

export interface Caller extends VerifiedToken {
  /** Two-factor authentication is required and not set up yet: only enrolment and logout are open. */
  restricted: boolean;
  /**
   * The session check: done by the guard, or (`requireUserFolded` on PostgreSQL) pending until the route's
   * first statement settles it (modules/auth/session-check.ts).
   */
  session: SessionCheck;
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
  /**
   * As `requireUser`, but on PostgreSQL the session is checked by the route's own first statement
   * (`caller(request).session`, docs/decisions/0058): for routes whose service folds it into its read.
   * A check no statement settled is made by the route's wrapper before the reply (lib/route.ts).
   */
  requireUserFolded: Guard;
  /** Admins and analysts: the admin area's read views and exports. */
  requireStaff: Guard;
  /** Admins only: edits, study logins, the audit log. */
  requireAdmin: Guard;
  /** Any logged-in account, even one whose session waits for two-factor enrolment (security routes, logout). */
  requireSession: Guard;
}

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
  // (docs/decisions/0040-session-check-cache.md). PostgreSQL may have several: the database decides each time,
  // in a statement of its own or folded into the route's first statement (0058).
  const cache = deps.database.dialect === 'sqlite' ? sessionCacheOf(deps.database.db) : null;
  const canFold = deps.database.dialect === 'postgres';

  const activeSession = async (sessionId: string, userId: string, now: Date): Promise<CachedSession | undefined> => {
    const cached = cache?.get(sessionId, now);
    if (cached && cached.userId === userId) return cached;
    const ticket = cache?.ticket();
    const session = await findActiveSession(deps.database.db, sessionId, now.toISOString());
    if (session && cache && ticket) cache.store(sessionId, session, ticket);
    return session;
  };

  const verify = async (request: FastifyRequest): Promise<{ verified: VerifiedToken; now: Date }> => {
    const token = bearerToken(request);
    if (!token) throw unauthenticated();
    const now = deps.clock();
    const verified = await signer.verify(token, now);
    if (!verified) throw unauthenticated('Your session is invalid or has expired. Please log in again.');
    return { verified, now };
  };

  const touch = (verified: VerifiedToken) => async () => {
    if (onParticipant && verified.role === 'participant') await onParticipant(verified.userId);
  };

  const authenticate: Guard = async (request) => {
    const { verified, now } = await verify(request);
    const session = await activeSession(verified.sessionId, verified.userId, now);
    if (!session) throw unauthenticated(SESSION_ENDED_MESSAGE);
    request.auth = { ...verified, restricted: session.restricted, session: SessionCheck.done() };
    await touch(verified)();
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

  const requireUser = requireRole('any', '');
  // The check is left to the route: the session is not restricted unless its statement says so (then 403).
  const requireUserFolded: Guard = async (request, reply) => {
    if (!canFold) return requireUser(request, reply);
    const { verified, now } = await verify(request);
    const probe = { sessionId: verified.sessionId, now: now.toISOString() };
    const read = async (p: SessionProbe) => findActiveSession(deps.database.db, p.sessionId, p.now);
    request.auth = { ...verified, restricted: false, session: new SessionCheck(probe, read, touch(verified)) };
  };

  return {
    requireUser,
    requireUserFolded,
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

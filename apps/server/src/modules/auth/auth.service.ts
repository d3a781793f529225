import { LOGIN_REVOKED_TEXT, type LoginResult, type Role } from '@studychat/contracts';
import type { UserRow } from '../../db/schema.js';
import type { AppDeps } from '../../lib/deps.js';
import { AppError } from '../../lib/errors.js';
import { advanceTotpStep, findLoginAccount, lastLoginUpdate, setTotpSecret } from './credentials.repository.js';
import type { HashQueue } from '../users/hash-queue.js';
import {
  decoyPasswordHash,
  generatePassword,
  hashGeneratedPassword,
  isSlowHash,
  verifyPassword,
} from '../users/password.js';
import { looksLikeStudyLogin } from '../users/study-login.js';
import { atomicWrites } from '../../db/atomic-writes.js';
import { toBool, toNumberOrNull } from '../../db/values.js';
import { openSecret } from './secret-box.js';
import { acceptTotp } from './totp.js';
import type { LoginLimiter } from './login-limiter.js';
import { addressKeyOf } from './login-rules.js';
import { revokeSession, revokeUserSessions, sessionInsert } from './session.repository.js';
import type { TokenSigner } from './token.js';

/** What the TOTP secrets are sealed for (modules/auth/secret-box.ts). */
export const TOTP_PURPOSE = 'totp';
export const INVALID_CREDENTIALS = 'Invalid email or password';
export const TOTP_REQUIRED_MESSAGE = 'Enter the 6-digit code from your authenticator app.';
export const TOTP_INVALID_MESSAGE =
  'That code is wrong or has already been used. Enter the current code from your authenticator app.';

export interface AuthContext {
  deps: AppDeps;
  signer: TokenSigner;
  tokenTtlSeconds: number;
  limiter: LoginLimiter;
  hashQueue: HashQueue;
  /** Key of the HMAC that stores generated study passwords, and of the box that holds TOTP secrets. */
  pepper: string;
  /** Admins and analysts must set up two-factor authentication (ADMIN_TOTP_REQUIRED). */
  totpRequired: boolean;
  /**
   * The monitor's last seen (modules/monitor/last-seen.ts): a participant's login records it with the login's
   * own write, so their first calls after it write nothing more.
   */
  lastSeen?: { remember(userId: string, at: Date): void };
}

export function roleOf(user: { is_admin: boolean | number; role: string }): Role {
  if (toBool(user.is_admin)) return 'admin';
  return user.role === 'analyst' ? 'analyst' : 'participant';
}

/** The second factor of an account that has one: throws 401 TOTP_REQUIRED or TOTP_INVALID. */
async function checkSecondFactor(ctx: AuthContext, user: UserRow, code: string | undefined, now: Date): Promise<void> {
  if (!user.totp_enabled_at || !user.totp_secret) return;
  if (code === undefined) throw new AppError(401, 'TOTP_REQUIRED', TOTP_REQUIRED_MESSAGE);
  const secret = openSecret(user.totp_secret, ctx.pepper, TOTP_PURPOSE);
  const step = secret === null ? null : acceptTotp(secret, code, now, toNumberOrNull(user.totp_last_step));
  if (step === null || !(await advanceTotpStep(ctx.deps.database.db, user.id, step))) {
    throw new AppError(401, 'TOTP_INVALID', TOTP_INVALID_MESSAGE);
  }
}

/**
 * The stored hash to check a password against. An unknown email is checked against a decoy of the kind
 * its shape suggests (an HMAC for a study-login address, argon2 otherwise), so the response time does
 * not reveal which emails exist.
 */
async function hashToCheck(ctx: AuthContext, account: string, stored: string | undefined): Promise<string> {
  if (stored !== undefined) return stored;
  return looksLikeStudyLogin(account) ? hashGeneratedPassword(generatePassword(), ctx.pepper) : decoyPasswordHash();
}

export async function login(
  ctx: AuthContext,
  input: { email: string; password: string; totp?: string | undefined },
  ip: string,
): Promise<LoginResult> {
  const { email, password } = input;
  const { db } = ctx.deps.database;
  const now = ctx.deps.clock();
  const account = email.trim().toLowerCase();
  const address = addressKeyOf(ip);
  const found = await findLoginAccount(db, account, address, ctx.limiter.knownSince(now));
  const user = found?.user;
  const known = found?.knownAddress ?? false;

  // Reserved before the password is checked: parallel guesses cannot pass the limit.
  const reservation = await ctx.limiter.reserve({ account, address, known }, now);
  let valid: boolean;
  try {
    const stored = await hashToCheck(ctx, account, user?.password_hash);
    const check = () => verifyPassword(stored, password, ctx.pepper);
    valid = isSlowHash(stored) ? await ctx.hashQueue.run(known ? 'known' : 'unknown', check) : await check();
  } catch (error) {
    // Busy (503): the password was never checked, so the attempt does not count.
    await reservation.cancel();
    throw error;
  }
  if (!user || !valid) throw new AppError(401, 'INVALID_CREDENTIALS', INVALID_CREDENTIALS);
  // A revoked study login (docs/decisions/0077): told so only once its password was right.
  if (user.disabled_at) {
    await reservation.cancel();
    throw new AppError(403, 'LOGIN_REVOKED', LOGIN_REVOKED_TEXT);
  }
  try {
    await checkSecondFactor(ctx, user, input.totp, now);
  } catch (error) {
    // The password was right and no code was sent yet: asking for it is not a failed attempt.
    if (error instanceof AppError && error.code === 'TOTP_REQUIRED') await reservation.cancel();
    throw error;
  }
  const role = roleOf(user);
  const restricted = ctx.totpRequired && role !== 'participant' && !user.totp_enabled_at;

  const sessionId = ctx.deps.newId();
  const nowIso = now.toISOString();
  // The attempt confirmed, the session and the last login, together (db/atomic-writes.ts, decision 0069).
  await atomicWrites(db, [
    ...reservation.succeeded(user.id),
    sessionInsert(db, {
      id: sessionId,
      user_id: user.id,
      created_at: nowIso,
      expires_at: new Date(now.getTime() + ctx.tokenTtlSeconds * 1000).toISOString(),
      restricted,
    }),
    lastLoginUpdate(db, user.id, nowIso, role === 'participant'),
  ]);
  if (role === 'participant') ctx.lastSeen?.remember(user.id, now);
  const token = await ctx.signer.sign(
    { userId: user.id, email: user.email, isAdmin: role === 'admin', role },
    sessionId,
    now,
    ctx.tokenTtlSeconds,
  );
  return { token, user: { id: user.id, email: user.email }, ...(restricted ? { totpEnrolmentRequired: true } : {}) };
}

/** Ends the caller's session. */
export async function logout(ctx: AuthContext, sessionId: string): Promise<void> {
  await revokeSession(ctx.deps.database.db, sessionId, ctx.deps.clock().toISOString());
}

// The auth module's public API for other modules (a preview signs its test participant in; the monitor's stream
// ends for a session no longer active).
export { activeStaffSessionIds, insertSession, revokeUserSessions } from './session.repository.js';
export { setLastLogin } from './credentials.repository.js';

/** Ends every session of an account another admin changed or removed (its role is in its login). */
export async function endSessionsOf(ctx: AuthContext, userId: string): Promise<number> {
  return revokeUserSessions(ctx.deps.database.db, userId, ctx.deps.clock().toISOString());
}

/** Turns an account's two-factor authentication off (an admin's reset): its next login sets it up again. */
export async function clearTotpOf(ctx: AuthContext, userId: string): Promise<void> {
  await setTotpSecret(ctx.deps.database.db, userId, null, ctx.deps.clock().toISOString());
}

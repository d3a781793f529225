import type { LoginResult } from '@studychat/contracts';
import type { AppDeps } from '../../lib/deps.js';
import { AppError } from '../../lib/errors.js';
import { findUserByEmail, setLastLogin } from '../users/user.repository.js';
import type { HashQueue } from '../users/hash-queue.js';
import {
  decoyPasswordHash,
  generatePassword,
  hashGeneratedPassword,
  isSlowHash,
  verifyPassword,
} from '../users/password.js';
import { looksLikeStudyLogin } from '../users/study-login.js';
import { toBool } from '../../db/values.js';
import type { LoginLimiter } from './login-limiter.js';
import { addressKeyOf } from './login-rules.js';
import { insertSession, revokeSession } from './session.repository.js';
import type { TokenSigner } from './token.js';

export const INVALID_CREDENTIALS = 'Invalid email or password';

export interface AuthContext {
  deps: AppDeps;
  signer: TokenSigner;
  tokenTtlSeconds: number;
  limiter: LoginLimiter;
  hashQueue: HashQueue;
  /** Key of the HMAC that stores generated study passwords. */
  pepper: string;
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

export async function login(ctx: AuthContext, email: string, password: string, ip: string): Promise<LoginResult> {
  const { db } = ctx.deps.database;
  const now = ctx.deps.clock();
  const account = email.trim().toLowerCase();
  const address = addressKeyOf(ip);
  const user = await findUserByEmail(db, account);
  const known = user ? await ctx.limiter.isKnown(user.id, address, now) : false;

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
  await reservation.succeeded(user.id);

  const sessionId = ctx.deps.newId();
  const nowIso = now.toISOString();
  await insertSession(db, {
    id: sessionId,
    user_id: user.id,
    created_at: nowIso,
    expires_at: new Date(now.getTime() + ctx.tokenTtlSeconds * 1000).toISOString(),
  });
  await setLastLogin(db, user.id, nowIso);
  const token = await ctx.signer.sign(
    { userId: user.id, email: user.email, isAdmin: toBool(user.is_admin) },
    sessionId,
    now,
    ctx.tokenTtlSeconds,
  );
  return { token, user: { id: user.id, email: user.email } };
}

export async function logout(ctx: AuthContext, sessionId: string): Promise<void> {
  await revokeSession(ctx.deps.database.db, sessionId, ctx.deps.clock().toISOString());
}

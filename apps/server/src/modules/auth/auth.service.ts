import type { LoginResult } from '@studychat/contracts';
import type { AppDeps } from '../../lib/deps.js';
import { AppError } from '../../lib/errors.js';
import { findUserByEmail, setLastLogin } from '../users/user.repository.js';
import { decoyPasswordHash, verifyPassword } from '../users/password.js';
import { toBool } from '../../db/values.js';
import { clearAccountFailures, isLimited, recordFailure } from './login-limiter.js';
import { insertSession, revokeSession } from './session.repository.js';
import type { TokenSigner } from './token.js';

export const INVALID_CREDENTIALS = 'Invalid email or password';
export const TOO_MANY_ATTEMPTS = 'Too many failed login attempts. Please wait 15 minutes and try again.';

export interface AuthContext {
  deps: AppDeps;
  signer: TokenSigner;
  tokenTtlSeconds: number;
}

export async function login(ctx: AuthContext, email: string, password: string, ip: string): Promise<LoginResult> {
  const { db } = ctx.deps.database;
  const now = ctx.deps.clock();
  if (await isLimited(db, ip, email, now)) throw new AppError(429, 'RATE_LIMITED', TOO_MANY_ATTEMPTS);

  const user = await findUserByEmail(db, email);
  const valid = await verifyPassword(user?.password_hash ?? (await decoyPasswordHash()), password);
  if (!user || !valid) {
    await recordFailure(db, ctx.deps.newId, ip, email, now);
    throw new AppError(401, 'INVALID_CREDENTIALS', INVALID_CREDENTIALS);
  }

  const sessionId = ctx.deps.newId();
  const nowIso = now.toISOString();
  await insertSession(db, {
    id: sessionId,
    user_id: user.id,
    created_at: nowIso,
    expires_at: new Date(now.getTime() + ctx.tokenTtlSeconds * 1000).toISOString(),
  });
  await setLastLogin(db, user.id, nowIso);
  await clearAccountFailures(db, email);
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

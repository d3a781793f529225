import type { SecurityStatus, TotpSetup } from '@studychat/contracts';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { toNumberOrNull } from '../../db/values.js';
import { findUserById } from '../users/users.service.js';
import { advanceTotpStep, enableTotp, setTotpSecret } from './credentials.repository.js';
import { roleOf, TOTP_INVALID_MESSAGE, TOTP_PURPOSE, type AuthContext } from './auth.service.js';
import { openSecret, sealSecret } from './secret-box.js';
import { revokeUserSessions, unrestrictUserSessions } from './session.repository.js';
import { acceptTotp, newTotpSecret, totpUrl } from './totp.js';

// Two-factor enrolment and "log out everywhere" for the caller's own account
// (docs/decisions/0020-admin-security.md).

async function ownUser(ctx: AuthContext, userId: string) {
  const user = await findUserById(ctx.deps.database.db, userId);
  if (!user) throw notFound('Account not found');
  return user;
}

function statusOf(ctx: AuthContext, user: { is_admin: boolean | number; role: string; totp_enabled_at: unknown }) {
  return {
    role: roleOf(user),
    totpEnabled: user.totp_enabled_at !== null && user.totp_enabled_at !== undefined,
    totpRequired: ctx.totpRequired && roleOf(user) !== 'participant',
  } satisfies SecurityStatus;
}

export async function securityStatus(ctx: AuthContext, userId: string): Promise<SecurityStatus> {
  return statusOf(ctx, await ownUser(ctx, userId));
}

/** A new secret, shown once; it protects logins only after a code from it has been confirmed (enable). */
export async function startTotpSetup(ctx: AuthContext, userId: string): Promise<TotpSetup> {
  const user = await ownUser(ctx, userId);
  if (roleOf(user) === 'participant')
    throw new AppError(403, 'FORBIDDEN', 'Two-factor authentication is for admin accounts');
  if (user.totp_enabled_at)
    throw conflict('Two-factor authentication is already on. Turn it off first to set up a new device.');
  const secret = newTotpSecret();
  await setTotpSecret(
    ctx.deps.database.db,
    user.id,
    sealSecret(secret, ctx.pepper, TOTP_PURPOSE),
    ctx.deps.clock().toISOString(),
  );
  return { secret, otpauthUrl: totpUrl(secret, user.email) };
}

async function acceptCode(
  ctx: AuthContext,
  user: { id: string; totp_secret: string | null; totp_last_step: unknown },
  code: string,
) {
  const secret = user.totp_secret ? openSecret(user.totp_secret, ctx.pepper, TOTP_PURPOSE) : null;
  if (!secret) throw conflict('Start the set-up first: no two-factor secret is waiting for confirmation.');
  const step = acceptTotp(secret, code, ctx.deps.clock(), toNumberOrNull(user.totp_last_step as number | null));
  if (step === null) throw new AppError(400, 'TOTP_INVALID', TOTP_INVALID_MESSAGE);
  return step;
}

/** Confirms the set-up with a current code: from now on logins ask for a code. */
export async function enableTotpFor(ctx: AuthContext, userId: string, code: string): Promise<SecurityStatus> {
  const user = await ownUser(ctx, userId);
  if (user.totp_enabled_at) throw conflict('Two-factor authentication is already on.');
  const step = await acceptCode(ctx, user, code);
  const { db } = ctx.deps.database;
  await enableTotp(db, user.id, step, ctx.deps.clock().toISOString());
  await unrestrictUserSessions(db, user.id);
  return securityStatus(ctx, userId);
}

/** Turns two-factor off with a current code; refused while the server requires it. */
export async function disableTotpFor(ctx: AuthContext, userId: string, code: string): Promise<SecurityStatus> {
  const user = await ownUser(ctx, userId);
  if (!user.totp_enabled_at) throw conflict('Two-factor authentication is not on.');
  if (statusOf(ctx, user).totpRequired)
    throw conflict('Two-factor authentication is required on this server and cannot be turned off.');
  const step = await acceptCode(ctx, user, code);
  const { db } = ctx.deps.database;
  if (!(await advanceTotpStep(db, user.id, step))) throw new AppError(400, 'TOTP_INVALID', TOTP_INVALID_MESSAGE);
  await setTotpSecret(db, user.id, null, ctx.deps.clock().toISOString());
  return securityStatus(ctx, userId);
}

/** Revokes every session of the account, the caller's own included. */
export async function logoutEverywhere(ctx: AuthContext, userId: string): Promise<{ ok: true; revoked: number }> {
  const revoked = await revokeUserSessions(ctx.deps.database.db, userId, ctx.deps.clock().toISOString());
  return { ok: true, revoked };
}

import type { CreatedStaff, CreateStaffBody, StaffMember, StaffRole } from '@studychat/contracts';
import { toIso } from '../../db/values.js';
import { conflict } from '../../lib/errors.js';
import { recordAudit } from '../audit/audit.service.js';
import { clearTotpOf, endSessionsOf, type AuthContext } from '../auth/auth.service.js';
import {
  changeStaffRole,
  createStaffAccount,
  findStaffAccount,
  listStaffAccounts,
  removeStaffAccount,
  staffRoleOf,
  type StaffRow,
} from '../users/users.service.js';

// People of the admin area (issue 34): admins add, change and remove admins and analysts, and reset another's
// two-factor authentication. Each change is audited with who did it; a changed or removed account's sessions end
// at once, since its role travels in its login. Nobody changes or removes their own account, and the last admin
// can be neither removed nor made an analyst (that holds under concurrent changes too: users.service locks).

export interface Actor {
  userId: string;
  email: string;
}

function toMember(row: StaffRow): StaffMember {
  return {
    id: row.id,
    email: row.email,
    role: staffRoleOf(row),
    totp_enabled: row.totp_enabled_at !== null && row.totp_enabled_at !== undefined,
    created_at: toIso(row.created_at),
    last_login_at: row.last_login_at === null ? null : toIso(row.last_login_at),
  };
}

export async function listStaff(ctx: AuthContext): Promise<StaffMember[]> {
  return (await listStaffAccounts(ctx.deps)).map(toMember);
}

/** A new admin or analyst; the one-time password is in this reply only (the audit log never holds it). */
export async function addStaff(ctx: AuthContext, actor: Actor, body: CreateStaffBody): Promise<CreatedStaff> {
  const { row, password } = await createStaffAccount(ctx.deps, body.email, body.role);
  const member = toMember(row);
  await recordAudit(ctx.deps, actor, {
    action: 'staff.create',
    target: { type: 'user', id: member.id },
    details: { email: member.email, role: member.role },
  });
  return { ...member, password };
}

/** One's own account is changed or removed by another admin, so nobody locks themselves out by a slip. */
function notSelf(actor: Actor, id: string, what: string): void {
  if (id === actor.userId) throw conflict(`You cannot ${what} your own account: another admin can.`);
}

export async function setStaffRole(ctx: AuthContext, actor: Actor, id: string, role: StaffRole): Promise<StaffMember> {
  notSelf(actor, id, 'change the role of');
  const { row, changed } = await changeStaffRole(ctx.deps, id, role);
  if (changed) {
    const sessionsEnded = await endSessionsOf(ctx, id);
    await recordAudit(ctx.deps, actor, {
      action: 'staff.role',
      target: { type: 'user', id },
      details: { email: row.email, role, sessions_ended: sessionsEnded },
    });
  }
  return toMember(row);
}

export async function removeStaff(ctx: AuthContext, actor: Actor, id: string): Promise<{ ok: true }> {
  notSelf(actor, id, 'remove');
  const removed = await removeStaffAccount(ctx.deps, id);
  // Its sessions went with the account: this tells every process's session cache so.
  await endSessionsOf(ctx, id);
  await recordAudit(ctx.deps, actor, {
    action: 'staff.remove',
    target: { type: 'user', id },
    details: { email: removed.email, role: staffRoleOf(removed) },
  });
  return { ok: true };
}

/**
 * Another account's two-factor authentication off (a lost phone): its sessions end, and its next login sets
 * two-factor up again where the server requires it. One's own goes through the Security page, with a code.
 */
export async function resetStaffTotp(ctx: AuthContext, actor: Actor, id: string): Promise<StaffMember> {
  if (id === actor.userId) {
    throw conflict('Use the Security page to change your own two-factor authentication.');
  }
  const row = await findStaffAccount(ctx.deps, id);
  await clearTotpOf(ctx, id);
  const sessionsEnded = await endSessionsOf(ctx, id);
  await recordAudit(ctx.deps, actor, {
    action: 'staff.totp_reset',
    target: { type: 'user', id },
    details: { email: row.email, was_enabled: row.totp_enabled_at !== null, sessions_ended: sessionsEnded },
  });
  return toMember({ ...row, totp_enabled_at: null });
}

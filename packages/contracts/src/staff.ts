import { z } from 'zod';
import { defineRoute } from './route.js';
import { Id, IdParams, Ok, Timestamp } from './common.js';
import { LineText } from './text.js';

// People of the admin area (issue 34): admins and analysts added, their role changed, removed and their
// two-factor authentication reset by an admin, each audited. Participants are study logins, not managed here.

export const StaffRole = z.enum(['admin', 'analyst']);
export type StaffRole = z.infer<typeof StaffRole>;

export const StaffMember = z.object({
  id: Id,
  email: z.string(),
  role: StaffRole,
  totp_enabled: z.boolean(),
  created_at: Timestamp,
  last_login_at: Timestamp.nullable(),
});
export type StaffMember = z.infer<typeof StaffMember>;

export const CreateStaffBody = z.object({
  email: LineText.trim().min(1, 'Email is required').max(254).pipe(z.email('Email must be a valid email address')),
  role: StaffRole,
});
export type CreateStaffBody = z.infer<typeof CreateStaffBody>;

/** The new account with its one-time password: shown once, never stored in clear or logged. */
export const CreatedStaff = StaffMember.extend({ password: z.string() });
export type CreatedStaff = z.infer<typeof CreatedStaff>;

export const StaffRoleBody = z.object({ role: StaffRole });
export type StaffRoleBody = z.infer<typeof StaffRoleBody>;

export const staffRoutes = {
  list: defineRoute({ method: 'GET', path: '/api/admin/staff', reply: z.array(StaffMember) }),
  create: defineRoute({
    method: 'POST',
    path: '/api/admin/staff',
    body: CreateStaffBody,
    reply: CreatedStaff,
    status: 201,
  }),
  /** Admin to analyst or back; the account's sessions end (the role is in its login). Never the last admin. */
  setRole: defineRoute({
    method: 'PUT',
    path: '/api/admin/staff/:id/role',
    params: IdParams,
    body: StaffRoleBody,
    reply: StaffMember,
  }),
  /** Deletes the account and ends its sessions; the audit log keeps its email. Never the last admin. */
  remove: defineRoute({ method: 'DELETE', path: '/api/admin/staff/:id', params: IdParams, reply: Ok }),
  /** Turns another account's two-factor authentication off (a lost phone); it sets it up again at next login. */
  resetTotp: defineRoute({
    method: 'POST',
    path: '/api/admin/staff/:id/totp-reset',
    params: IdParams,
    reply: StaffMember,
  }),
};

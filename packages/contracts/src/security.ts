import { z } from 'zod';
import { defineRoute } from './route.js';
import { Id, Timestamp } from './common.js';
import { Role } from './auth.js';
import { LineText } from './text.js';

const TotpCode = LineText.trim().regex(/^\d{6}$/, 'The code must be the 6 digits your authenticator app shows');

export const SecurityStatus = z.object({
  role: Role,
  totpEnabled: z.boolean(),
  /** Two-factor authentication is required for admin and analyst accounts (ADMIN_TOTP_REQUIRED). */
  totpRequired: z.boolean(),
});
export type SecurityStatus = z.infer<typeof SecurityStatus>;

/** Shown once, at enrolment: the secret to type into an authenticator app, and the otpauth:// link. */
export const TotpSetup = z.object({ secret: z.string(), otpauthUrl: z.string() });
export type TotpSetup = z.infer<typeof TotpSetup>;
export const TotpCodeBody = z.object({ code: TotpCode });

export const LogoutAllReply = z.object({ ok: z.literal(true), revoked: z.number().int() });

export const AuditEntry = z.object({
  id: Id,
  actor_id: Id,
  actor_email: z.string(),
  /** e.g. experiment.update, credentials.generate, export.download, participant.view */
  action: z.string(),
  target_type: z.string().nullable(),
  target_id: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  created_at: Timestamp,
});
export type AuditEntry = z.infer<typeof AuditEntry>;
export const AuditQuery = z.object({
  /** The `next` of the previous page. */
  cursor: LineText.max(100).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export const AuditPage = z.object({ entries: z.array(AuditEntry), next: z.string().nullable() });
export type AuditPage = z.infer<typeof AuditPage>;

export const securityRoutes = {
  status: defineRoute({ method: 'GET', path: '/api/auth/security', reply: SecurityStatus }),
  totpSetup: defineRoute({ method: 'POST', path: '/api/auth/totp/setup', reply: TotpSetup }),
  totpEnable: defineRoute({ method: 'POST', path: '/api/auth/totp/enable', body: TotpCodeBody, reply: SecurityStatus }),
  totpDisable: defineRoute({
    method: 'POST',
    path: '/api/auth/totp/disable',
    body: TotpCodeBody,
    reply: SecurityStatus,
  }),
  /** Revokes every session of the caller's account, this one included. */
  logoutAll: defineRoute({ method: 'POST', path: '/api/auth/logout-all', reply: LogoutAllReply }),
  auditLog: defineRoute({ method: 'GET', path: '/api/admin/audit-log', query: AuditQuery, reply: AuditPage }),
};

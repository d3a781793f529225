import { z } from 'zod';
import { defineRoute } from './route.js';
import { Id, Ok } from './common.js';
import { LineText } from './text.js';

export const LoginBody = z.object({
  email: LineText.trim().min(1, 'Email is required').max(254).pipe(z.email('Email must be a valid email address')),
  password: LineText.min(1, 'Password is required').max(1024),
  /** The 6-digit code of an account with two-factor authentication, sent once the server asks for it. */
  totp: LineText.trim()
    .regex(/^\d{6}$/, 'The code must be the 6 digits your authenticator app shows')
    .optional(),
});

export const LoginResult = z.object({
  token: z.string(),
  user: z.object({ id: Id, email: z.string() }),
  /** Two-factor authentication is required for this account and not set up yet: only enrolment is open. */
  totpEnrolmentRequired: z.boolean().optional(),
});
export type LoginResult = z.infer<typeof LoginResult>;

export const Role = z.enum(['participant', 'analyst', 'admin']);
export type Role = z.infer<typeof Role>;

/**
 * What the signed token carries (spec section 3), plus the role: an analyst has isAdmin false and may see
 * the admin area's read views and exports. Tokens without a role are read as admin or participant.
 */
export const TokenPayload = z.object({ userId: Id, email: z.string(), isAdmin: z.boolean(), role: Role.optional() });
export type TokenPayload = z.infer<typeof TokenPayload>;

export const HealthReply = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ dialect: z.enum(['sqlite', 'postgres']), reachable: z.boolean() }),
  /** The active chat model provider; 'scripted' means no real model is connected. */
  llmProvider: z.string(),
});

export const authRoutes = {
  login: defineRoute({ method: 'POST', path: '/api/auth/login', body: LoginBody, reply: LoginResult }),
  logout: defineRoute({ method: 'POST', path: '/api/auth/logout', reply: Ok }),
  health: defineRoute({ method: 'GET', path: '/api/health', reply: HealthReply }),
};

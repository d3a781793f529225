import { z } from 'zod';
import { defineRoute } from './route.js';
import { Id, Ok } from './common.js';
import { LineText } from './text.js';

export const LoginBody = z.object({
  email: LineText.trim().min(1, 'Email is required').max(254).pipe(z.email('Email must be a valid email address')),
  password: LineText.min(1, 'Password is required').max(1024),
});

export const LoginResult = z.object({
  token: z.string(),
  user: z.object({ id: Id, email: z.string() }),
});
export type LoginResult = z.infer<typeof LoginResult>;

/** What the signed token carries (spec section 3). */
export const TokenPayload = z.object({ userId: Id, email: z.string(), isAdmin: z.boolean() });
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

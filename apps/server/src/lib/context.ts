import type { AppConfig } from '../config.js';
import type { AppDeps } from './deps.js';
import type { Guard } from './route.js';

/** The request guards every route chooses from (plugins/auth.ts makes them). */
export interface Guards {
  /** Any logged-in account (participant, analyst, admin). */
  requireUser: Guard;
  /** Admins and analysts: the admin area's read views and exports. */
  requireStaff: Guard;
  /** Admins only: edits, study logins, the audit log. */
  requireAdmin: Guard;
  /** Any logged-in account, even one whose session waits for two-factor enrolment (security routes). */
  requireSession: Guard;
}

/** What every module's register function receives. */
export interface AppContext {
  config: AppConfig;
  deps: AppDeps;
  guards: Guards;
}

/** Who is asking: the authenticated caller (plugins/auth.ts `caller`). */
export interface Requester {
  userId: string;
  isAdmin: boolean;
}

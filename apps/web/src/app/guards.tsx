import type { ReactNode } from 'react';
import { Navigate } from '../lib/router';
import { currentUser, isLoggedIn, isStaff } from '../lib/session';

/**
 * Admin routes (spec section 6): unauthenticated to `/login`, a participant to `/prolific`. Read-only
 * analysts get in too; the pages hide what they may not change.
 */
export function RequireAdmin({ children }: { children: ReactNode }) {
  if (!isLoggedIn()) return <Navigate to="/login" replace />;
  if (!isStaff(currentUser())) return <Navigate to="/prolific" replace />;
  return children;
}

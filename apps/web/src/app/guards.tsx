import { Navigate, Outlet } from 'react-router';
import { currentUser, isLoggedIn, isStaff } from '../lib/session';

/**
 * Admin routes (spec section 6): unauthenticated to `/login`, a participant to `/prolific`. Read-only
 * analysts get in too; the pages hide what they may not change.
 */
export function RequireAdmin() {
  if (!isLoggedIn()) return <Navigate to="/login" replace />;
  if (!isStaff(currentUser())) return <Navigate to="/prolific" replace />;
  return <Outlet />;
}

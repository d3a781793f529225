import { Navigate, Outlet } from 'react-router';
import { currentUser, isLoggedIn } from '../lib/session';

/** Admin routes (spec section 6): unauthenticated to `/login`, a non-admin to `/prolific`. */
export function RequireAdmin() {
  if (!isLoggedIn()) return <Navigate to="/login" replace />;
  if (!currentUser()?.isAdmin) return <Navigate to="/prolific" replace />;
  return <Outlet />;
}

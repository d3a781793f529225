import { currentUser } from '../../lib/session';

/** Admins may change things in the admin area; read-only analysts only look (the server enforces it). */
export function canEdit(): boolean {
  return currentUser()?.isAdmin === true;
}

import type { TokenPayload } from '@studychat/contracts/web';
import { LOCAL_KEYS } from './storage-keys';

export function getToken(): string | null {
  return localStorage.getItem(LOCAL_KEYS.token);
}

export function setToken(token: string): void {
  localStorage.setItem(LOCAL_KEYS.token, token);
}

export function clearToken(): void {
  localStorage.removeItem(LOCAL_KEYS.token);
}

/** Logged in means a token is in local storage (spec section 4). */
export function isLoggedIn(): boolean {
  return getToken() !== null;
}

/**
 * The token's payload (userId, email, isAdmin), read without verification: the server verifies
 * every call; this only decides what to show.
 */
export function currentUser(): TokenPayload | null {
  const token = getToken();
  if (!token) return null;
  try {
    const part = token.split('.')[1];
    if (!part) return null;
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/'));
    const claims = JSON.parse(json) as Partial<TokenPayload>;
    if (typeof claims.userId !== 'string' || typeof claims.email !== 'string' || typeof claims.isAdmin !== 'boolean') {
      return null;
    }
    const role = claims.isAdmin ? 'admin' : claims.role === 'analyst' ? 'analyst' : 'participant';
    return { userId: claims.userId, email: claims.email, isAdmin: claims.isAdmin, role };
  } catch {
    return null;
  }
}

/** Admins and analysts see the admin area; only admins change anything there. */
export function isStaff(user: TokenPayload | null): boolean {
  return user !== null && (user.isAdmin || user.role === 'analyst');
}

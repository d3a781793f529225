import { endpoints } from '@studychat/contracts/web';
import { api } from './api';
import { getToken } from './session';

/**
 * Logout routine (spec section 4): tell the server (the token is revoked), clear local and session
 * storage, then go to `path` (default `/`). Storage is cleared even if the server cannot be reached.
 */
export async function logout(navigate: (path: string) => void, path = '/'): Promise<void> {
  if (getToken()) {
    try {
      await api(endpoints.auth.logout, {});
    } catch (error) {
      console.warn('logout request failed', error);
    }
  }
  localStorage.clear();
  sessionStorage.clear();
  navigate(path);
}

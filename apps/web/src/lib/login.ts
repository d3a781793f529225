import { endpoints, type LoginResult } from '@studychat/contracts/web';
import { api, ApiError } from './api';
import { setToken } from './session';

/** The password was right and the account has two-factor authentication: ask for the code. */
export class TotpRequiredError extends Error {}

/** A login the server refused with a code (e.g. LOGIN_REVOKED: a study login the research team withdrew). */
export class LoginRefusedError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/**
 * Logs in and stores the token. A failure is thrown as an Error carrying the server's message, or
 * `fallback` when the server gave none.
 */
export async function loginAndStoreToken(
  email: string,
  password: string,
  fallback = 'Invalid email or password',
  totp?: string,
): Promise<LoginResult> {
  try {
    const result = await api(endpoints.auth.login, { body: { email, password, ...(totp ? { totp } : {}) } });
    setToken(result.token);
    return result;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'TOTP_REQUIRED') throw new TotpRequiredError(error.message);
    if (error instanceof ApiError && error.code !== 'UNKNOWN') throw new LoginRefusedError(error.message, error.code);
    throw new Error(fallback);
  }
}

import { Secret, TOTP } from 'otpauth';

// RFC 6238 time-based one-time passwords (SHA-1, 6 digits, 30 s: what every authenticator app speaks),
// through the `otpauth` library. A code is accepted one step either side of now (clock drift) and never
// twice: the caller stores the step of the last code accepted.

const ISSUER = 'StudyChat';
const PERIOD = 30;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function totpUrl(secret: string, account: string): string {
  return new TOTP({ issuer: ISSUER, label: account, secret: Secret.fromBase32(secret), period: PERIOD }).toString();
}

/** The code an authenticator shows at `now` (tests use it to log in). */
export function totpCode(secret: string, now: Date): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), period: PERIOD, timestamp: now.getTime() });
}

/**
 * The time step of a valid code, or null. A code whose step is not after `lastStep` is refused, so a code
 * seen by someone else cannot be used again.
 */
export function acceptTotp(secret: string, code: string, now: Date, lastStep: number | null): number | null {
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromBase32(secret),
    period: PERIOD,
    timestamp: now.getTime(),
    window: 1,
  });
  if (delta === null) return null;
  const step = TOTP.counter({ period: PERIOD, timestamp: now.getTime() }) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

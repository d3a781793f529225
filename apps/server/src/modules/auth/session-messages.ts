/** What a refused session check says (plugins/auth.ts). */
export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please log in again.';
export const TOTP_ENROLMENT_MESSAGE =
  'Two-factor authentication is required for this account: set it up on the Security page first.';

import type { ErrorCode, ErrorReply } from '@studychat/contracts';

/** Fields some errors add to `{ error, code }`: `step` (STEP_OUT_OF_ORDER), `remainingSeconds` (SECTION_TOO_EARLY). */
export type ErrorExtra = Partial<Pick<ErrorReply, 'step' | 'flowStep' | 'remainingSeconds' | 'issues'>>;

/** An error with a stable code and HTTP status; the error handler answers it as `{ error, code, ...extra }`. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** Sent as Retry-After (seconds) with 429 and 503 replies. */
    readonly retryAfterSeconds?: number,
    /** Added to the reply: `step` (STEP_OUT_OF_ORDER), `remainingSeconds` (SECTION_TOO_EARLY). */
    readonly extra: ErrorExtra = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string) => new AppError(400, 'BAD_REQUEST', message);
export const unauthenticated = (message = 'Authentication required') => new AppError(401, 'UNAUTHENTICATED', message);
export const forbidden = (message = 'You do not have permission to do this') => new AppError(403, 'FORBIDDEN', message);
export const notFound = (message = 'Not found') => new AppError(404, 'NOT_FOUND', message);
export const conflict = (message: string) => new AppError(409, 'CONFLICT', message);

import { z } from 'zod';
import { CODE_KEYS, CONDITIONS, PATHWAYS } from './constants.js';

/** Stable error codes; every error reply is `{ error, code }`. */
export const ErrorCode = z.enum([
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'PAYLOAD_TOO_LARGE',
  'UNAUTHENTICATED',
  'INVALID_CREDENTIALS',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'RATE_LIMITED',
  'TOTP_REQUIRED',
  'TOTP_INVALID',
  'TOTP_ENROLMENT_REQUIRED',
  'SERVICE_BUSY',
  'PATHWAY_NOT_EARNED',
  'CODE_NOT_CONFIGURED',
  'PROLIFIC_ID_MISMATCH',
  'NO_CONDITION',
  'REPLY_IN_PROGRESS',
  'CHAT_CLOSED',
  'MESSAGE_TOO_LONG',
  'MODEL_UNAVAILABLE',
  'INTERNAL',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ErrorReply = z.object({ error: z.string(), code: ErrorCode });
export type ErrorReply = z.infer<typeof ErrorReply>;

export const Id = z.uuid();
/** ISO-8601 UTC timestamp string. */
export const Timestamp = z.string();

export const Condition = z.enum(CONDITIONS);
export const Pathway = z.enum(PATHWAYS);
export const CodeKey = z.enum(CODE_KEYS);
export type Condition = z.infer<typeof Condition>;
export type Pathway = z.infer<typeof Pathway>;
export type CodeKey = z.infer<typeof CodeKey>;

export const Ok = z.object({ ok: z.literal(true) });

export const IdParams = z.object({ id: Id });

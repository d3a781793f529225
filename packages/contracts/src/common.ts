import { z } from 'zod';

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
  'PATHWAY_NOT_EARNED',
  'CODE_NOT_CONFIGURED',
  'PROLIFIC_ID_MISMATCH',
  'NO_CONDITION',
  'REPLY_IN_PROGRESS',
  'MODEL_UNAVAILABLE',
  'INTERNAL',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ErrorReply = z.object({ error: z.string(), code: ErrorCode });
export type ErrorReply = z.infer<typeof ErrorReply>;

export const Id = z.uuid();
/** ISO-8601 UTC timestamp string. */
export const Timestamp = z.string();

export const Condition = z.enum(['mmr', 'control']);
export type Condition = z.infer<typeof Condition>;

export const Pathway = z.enum(['complete', 'confirm', 'ceiling']);
export type Pathway = z.infer<typeof Pathway>;

export const CodeKey = z.enum(['complete', 'exitnoqualms', 'exitceiling']);
export type CodeKey = z.infer<typeof CodeKey>;

/** Pathway to completion-code key (spec section 4). */
export const PATHWAY_CODE_KEY: Record<Pathway, CodeKey> = {
  complete: 'complete',
  confirm: 'exitnoqualms',
  ceiling: 'exitceiling',
};

export const Ok = z.object({ ok: z.literal(true) });

export const IdParams = z.object({ id: Id });

import { createHmac, timingSafeEqual } from 'node:crypto';

// Prolific signs each webhook request: X-Prolific-Request-Signature is the base64 of the HMAC-SHA256, under the
// workspace's hook secret, of X-Prolific-Request-Timestamp followed by the request body
// (docs/decisions/0083-prolific-api.md). The body is taken as it arrived, byte for byte.

export const SIGNATURE_HEADER = 'x-prolific-request-signature';
export const TIMESTAMP_HEADER = 'x-prolific-request-timestamp';
export const EVENT_ID_HEADER = 'x-event-id';

export function signWebhook(secret: string, timestamp: string, rawBody: string): string {
  return createHmac('sha256', secret)
    .update(timestamp + rawBody, 'utf8')
    .digest('base64');
}

/** Constant-time comparison of the signature sent with the one the secret gives. */
export function webhookSignatureValid(
  secret: string,
  timestamp: string | undefined,
  rawBody: string,
  signature: string | undefined,
): boolean {
  if (!timestamp || !signature) return false;
  const expected = Buffer.from(signWebhook(secret, timestamp, rawBody), 'utf8');
  const sent = Buffer.from(signature.trim(), 'utf8');
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}

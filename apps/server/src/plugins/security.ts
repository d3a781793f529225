import type { FastifyInstance } from 'fastify';

// The same headers @fastify/helmet sends by default (with a CSP fitted to the built web app), computed
// once: helmet builds them per request, which halved throughput in `npm run bench`
// (docs/decisions/0004-static-security-headers.md).
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
  "base-uri 'self'",
  "script-src-attr 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': CSP,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  // The Prolific completion link opens in a new tab; keep the referrer to this origin only.
  'referrer-policy': 'same-origin',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
});

/**
 * What a JSON API reply needs (OWASP REST Security Cheat Sheet): never cached, never sniffed or framed.
 * The document policies above only matter for pages, and sending them on every API reply cost about a
 * third of throughput in `npm run bench`.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'strict-transport-security': SECURITY_HEADERS['strict-transport-security'] ?? '',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
});

/** Security headers on every reply: the full set on pages and files, the API set on API replies. */
export function registerSecurity(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith('/api/') ? API_SECURITY_HEADERS : SECURITY_HEADERS);
    done();
  });
}

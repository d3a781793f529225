import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode, ErrorReply } from '@studychat/contracts';
import { AppError } from '../lib/errors.js';
import { API_SECURITY_HEADERS } from './security.js';

// The replies Node and Fastify would otherwise write themselves, each as `{ error, code }` like every other
// error (docs/decisions/0074-hardening.md): requests Node's HTTP parser refuses before Fastify sees them
// (malformed, headers or URL over the limit, too slow), URLs Fastify's router cannot decode or whose parameter
// is too long, a request without Host and an Expect header the server cannot meet.

/** The code of an error status the server answers without an AppError. */
export function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 404:
      return 'NOT_FOUND';
    case 408:
      return 'REQUEST_TIMEOUT';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 414:
      return 'URI_TOO_LONG';
    case 429:
      return 'RATE_LIMITED';
    case 431:
      return 'HEADERS_TOO_LARGE';
    default:
      return status >= 500 ? 'INTERNAL' : 'BAD_REQUEST';
  }
}

const PARSER_REFUSALS: Record<string, { status: number; error: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, error: 'The request took too long to arrive. Please try again.' },
  HPE_HEADER_OVERFLOW: { status: 431, error: 'The request headers (the URL included) are too large.' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, error: 'Request body is too large' },
};
const MALFORMED = { status: 400, error: 'The request is not well-formed HTTP.' };

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  417: 'Expectation Failed',
  431: 'Request Header Fields Too Large',
};

function headerLines(headers: Readonly<Record<string, string>>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
}

/**
 * Fastify's `clientErrorHandler`: Node's HTTP parser refused the request (or it came too slowly). Answered as
 * Node would (same statuses, then the connection closed), with an `{ error, code }` body; nothing is written
 * over a reply already under way on the connection.
 */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, error: message } = PARSER_REFUSALS[error.code ?? ''] ?? MALFORMED;
  this.log.debug({ code: error.code, status }, 'client error');
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const body = JSON.stringify({ error: message, code: codeForStatus(status) } satisfies ErrorReply);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Bad Request'}\r\n` +
        headerLines({
          ...API_SECURITY_HEADERS,
          'content-type': 'application/json; charset=utf-8',
          'content-length': String(Buffer.byteLength(body)),
          connection: 'close',
        }) +
        `\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** Fastify's `frameworkErrors`: a path Fastify's router cannot decode (400) or with a parameter over its limit (414). */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const refusal: { status: number; error: string } =
    error.code === 'FST_ERR_BAD_URL'
      ? { status: 400, error: 'The URL is not valid: a part of its path is badly encoded.' }
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? { status: 414, error: 'A part of the URL is too long.' }
        : { status: 500, error: 'Internal server error' };
  if (refusal.status >= 500) reply.log.error({ err: error }, 'unhandled framework error');
  const body: ErrorReply = { error: refusal.error, code: codeForStatus(refusal.status) };
  void reply.code(refusal.status).headers(API_SECURITY_HEADERS).send(body);
}

/** Node's HTTP server options that leave an answer to the app: a request without Host is refused by the hook below. */
export const PROTOCOL_SERVER_OPTIONS = { requireHostHeader: false } as const;

/**
 * What Node would answer itself with an empty body: an HTTP/1.1 request without Host (400, refused here before
 * any route) and an Expect header other than 100-continue (417).
 */
export function registerProtocolErrors(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      done(new AppError(400, 'BAD_REQUEST', 'The request has no Host header.'));
      return;
    }
    done();
  });
  app.server.on('checkExpectation', (_request, response: ServerResponse) => {
    const body = JSON.stringify({
      error: "The server cannot meet the request's Expect header.",
      code: 'BAD_REQUEST',
    } satisfies ErrorReply);
    response.writeHead(417, {
      ...API_SECURITY_HEADERS,
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      connection: 'close',
    });
    response.end(body);
  });
}

import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorReply } from '@studychat/contracts';
import { AppError } from '../lib/errors.js';
import { databaseErrorReply } from './database-errors.js';
import { codeForStatus } from './protocol-errors.js';

function describeValidation(
  error: { validation: { instancePath?: string; message?: string }[] },
  context?: string,
): string {
  const parts = error.validation.map((issue) => {
    const field = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
    const where = field || context || '';
    return where ? `${where}: ${issue.message ?? 'is invalid'}` : (issue.message ?? 'is invalid');
  });
  return parts.join('; ');
}

/** One place turns every failure into `{ error, code }`; 5xx details go to the log only. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const send = (status: number, body: ErrorReply) => reply.code(status).send(body);

    if (error instanceof AppError) {
      if (error.retryAfterSeconds !== undefined)
        reply.header('retry-after', String(Math.ceil(error.retryAfterSeconds)));
      return send(error.status, { error: error.message, code: error.code, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return send(400, { error: describeValidation(error, error.validationContext), code: 'VALIDATION_FAILED' });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, url: request.url }, 'reply did not match its schema');
      return send(500, { error: 'Internal server error', code: 'INTERNAL' });
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return send(413, { error: 'Request body is too large', code: 'PAYLOAD_TOO_LARGE' });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return send(415, { error: 'Unsupported content type: send JSON', code: 'BAD_REQUEST' });
    }
    if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return send(400, { error: 'Request body is empty: send a JSON object', code: 'BAD_REQUEST' });
    }
    if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
      return send(400, { error: 'Request body is not valid JSON', code: 'BAD_REQUEST' });
    }
    const dbError = databaseErrorReply(error);
    if (dbError) {
      // The value itself is never logged (the database's message may quote it).
      request.log.warn(
        { dbCode: dbError.dbCode, url: request.url, method: request.method },
        'database refused a write',
      );
      return send(dbError.status, dbError.body);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return send(status, { error: error.message, code: codeForStatus(status) });
    request.log.error({ err: error, url: request.url, method: request.method }, 'unhandled error');
    return send(500, { error: 'Internal server error', code: 'INTERNAL' });
  });
}

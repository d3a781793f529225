import pg from 'pg';
import { AppError } from '../lib/errors.js';

// PostgreSQL can go away and come back (a restart, a failover, a pooler or a firewall cutting connections):
// docs/decisions/0072. Every error of the kind "the database cannot be reached" becomes one error, at the
// place it comes from (db/database.ts), so the error handler answers it 503 with Retry-After, and nothing
// outside db/ needs to know the driver's codes and messages.

/** What a client is told to wait before trying again while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export const DATABASE_UNAVAILABLE_MESSAGE =
  'The service is briefly unavailable (its database cannot be reached). Please try again in a few seconds.';

/** The database could not be reached or the connection was lost: 503 DATABASE_UNAVAILABLE, with Retry-After. */
export class DatabaseUnavailableError extends AppError {
  constructor(readonly reason: unknown) {
    super(503, 'DATABASE_UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE, DATABASE_RETRY_AFTER_SECONDS);
    this.name = 'DatabaseUnavailableError';
  }
}

// Socket errors the pg client hands to the query that was running when its connection broke.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// The pg client's and pool's own errors for a connection that is gone or could not be made in time.
const PG_CONNECTION_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect)/;

/**
 * Whether an error the pg driver reported means the connection is gone (not that the statement was refused):
 * SQLSTATE class 08 (connection exception), class 57P (the server shut the session: admin_shutdown 57P01,
 * crash_shutdown 57P02, cannot_connect_now 57P03, database_dropped 57P04, idle_session_timeout 57P05),
 * 53300 too_many_connections, 25P03 idle_in_transaction_session_timeout, a socket error, or pg's own
 * "Connection terminated ..." and "not queryable" errors.
 */
export function isConnectionLost(error: unknown): boolean {
  if (error instanceof pg.DatabaseError) {
    const code = error.code ?? '';
    return code.startsWith('08') || code.startsWith('57P') || code === '53300' || code === '25P03';
  }
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (typeof code === 'string' && NETWORK_CODES.has(code)) || PG_CONNECTION_MESSAGES.test(error.message);
}

/** A short description of a driver error for the log: its code and message, never the query or its values. */
export function describeDriverError(error: unknown): { code?: string; message: string } {
  if (!(error instanceof Error)) return { message: String(error) };
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? { code, message: error.message } : { message: error.message };
}

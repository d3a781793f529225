import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import type { ErrorReply } from '@studychat/contracts';

// A safety net behind the contracts' text rules: when a value a client sent still makes the database
// refuse a write (a character or length PostgreSQL will not store, a duplicate, a row that does not
// exist), the client gets a clear 4xx instead of a 500. A database that cannot be reached is answered
// 503 DATABASE_UNAVAILABLE with Retry-After: db/ turns those errors into DatabaseUnavailableError, an
// AppError (db/unavailable.ts). Other errors that are not about the data (syntax) stay 500s. Nothing of the
// database's message (which can quote the value) is sent.

export interface DatabaseErrorReply {
  status: number;
  body: ErrorReply;
  /** The database's own error code, for the log. */
  dbCode: string;
}

const INVALID_VALUE: ErrorReply = {
  error: 'A value in the request cannot be stored (invalid characters, out of range or too long)',
  code: 'BAD_REQUEST',
};
const MISSING_VALUE: ErrorReply = { error: 'A required value is missing or not allowed', code: 'BAD_REQUEST' };
const DUPLICATE: ErrorReply = { error: 'This conflicts with an existing record', code: 'CONFLICT' };
const REFERENCE: ErrorReply = {
  error: 'This refers to a record that does not exist or is still in use',
  code: 'CONFLICT',
};

/** PostgreSQL SQLSTATE codes (Appendix A of its manual). */
function fromPostgres(code: string): Omit<DatabaseErrorReply, 'dbCode'> | undefined {
  // Class 22, data exception: NUL or a bad byte sequence (22021), too long (22001), out of range (22003),
  // a value of the wrong form (22P02, 22007, 22008) ...
  if (code.startsWith('22')) return { status: 400, body: INVALID_VALUE };
  if (code === '54000') return { status: 400, body: INVALID_VALUE }; // e.g. an index row too large
  if (code === '23505' || code === '23P01') return { status: 409, body: DUPLICATE };
  if (code === '23503') return { status: 409, body: REFERENCE };
  if (code === '23502' || code === '23514') return { status: 400, body: MISSING_VALUE };
  return undefined;
}

/** better-sqlite3's extended result codes. */
function fromSqlite(code: string): Omit<DatabaseErrorReply, 'dbCode'> | undefined {
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    return { status: 409, body: DUPLICATE };
  }
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return { status: 409, body: REFERENCE };
  if (code === 'SQLITE_CONSTRAINT_NOTNULL' || code === 'SQLITE_CONSTRAINT_CHECK') {
    return { status: 400, body: MISSING_VALUE };
  }
  if (code === 'SQLITE_TOOBIG' || code === 'SQLITE_MISMATCH') return { status: 400, body: INVALID_VALUE };
  return undefined;
}

/** The 4xx reply for a database error caused by the data written, or undefined for any other error. */
export function databaseErrorReply(error: unknown): DatabaseErrorReply | undefined {
  if (error instanceof pg.DatabaseError && typeof error.code === 'string') {
    const reply = fromPostgres(error.code);
    return reply && { ...reply, dbCode: error.code };
  }
  if (error instanceof BetterSqlite3.SqliteError) {
    const reply = fromSqlite(error.code);
    return reply && { ...reply, dbCode: error.code };
  }
  return undefined;
}

import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isConnectionLost } from './unavailable.js';

const pgError = (code: string) => Object.assign(new pg.DatabaseError('message', 0, 'error'), { code });
const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('which driver errors mean the database cannot be reached', () => {
  it('connection classes, shutdowns, socket errors and pg lost-connection errors do', () => {
    const lost = [
      pgError('57P01'), // admin_shutdown: pg_terminate_backend, a fast shutdown
      pgError('57P02'),
      pgError('57P03'), // cannot_connect_now: starting up, recovering
      pgError('08006'),
      pgError('08001'),
      pgError('53300'), // too many connections
      pgError('25P03'),
      withCode('read ECONNRESET', 'ECONNRESET'),
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('timeout exceeded when trying to connect'),
    ];
    for (const error of lost) expect({ error, lost: isConnectionLost(error) }).toEqual({ error, lost: true });
  });

  it('errors about the statement or its data do not, nor any SQLite error', () => {
    const other = [
      pgError('23505'),
      pgError('22001'),
      pgError('40001'),
      pgError('42P01'),
      pgError('57014'), // a statement cancelled: the connection is fine
      new BetterSqlite3.SqliteError('database is locked', 'SQLITE_BUSY'),
      new BetterSqlite3.SqliteError('disk I/O error', 'SQLITE_IOERR'),
      new Error('boom'),
      'not an error',
    ];
    for (const error of other) expect({ error, lost: isConnectionLost(error) }).toEqual({ error, lost: false });
  });
});

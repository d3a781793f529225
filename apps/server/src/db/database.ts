import { mkdirSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type SqliteDatabase, type SqliteStatement } from 'kysely';
import pg from 'pg';
import { nameStatements, type PreparedState } from './pg-prepared.js';
import { pgTypeParsers } from './pg-timestamps.js';
import { countingDialect, type QueryCounter } from './query-counter.js';
import type { DB } from './schema.js';
import { DatabaseUnavailableError, describeDriverError, isConnectionLost } from './unavailable.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /**
   * Several server processes may use this database (PostgreSQL): nothing may be cached in one process that
   * another can change (the session check reads the database on every request). SQLite is owned by one process.
   */
  sharedByProcesses: boolean;
  /**
   * Statements run on this process's event loop (SQLite's driver is synchronous): a long statement holds every
   * request and stream meanwhile, so bulk writes go in small statements. PostgreSQL runs them in the server.
   */
  runsOnEventLoop: boolean;
  /** Statements sent so far (transaction control included): `npm run bench:journey`, query-count tests. */
  queries: QueryCounter;
  /** True when a trivial query succeeds. */
  ping(): Promise<boolean>;
  /**
   * Where connection problems go (a connection lost, the database unreachable, then reachable again): the
   * app's logger once it is built (app.ts); stderr until then. Nothing of a query or its values is logged.
   */
  reportTo(log: DatabaseLog): void;
  close(): Promise<void>;
}

/** The part of a pino logger the database reports to. */
export interface DatabaseLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

const stderrLog: DatabaseLog = {
  warn: (fields, message) => console.warn(message, JSON.stringify(fields)),
};

export interface DatabaseOptions {
  /** A postgres:// URL selects PostgreSQL; otherwise SQLite at `sqliteFile`. */
  databaseUrl?: string | undefined;
  sqliteFile: string;
  /** PostgreSQL schema to use (tests isolate themselves in their own schema). */
  pgSchema?: string | undefined;
  pgPoolSize?: number | undefined;
  /** How long a query waits for a connection (a new one, or a free one of the pool) before it gets a 503. */
  pgConnectTimeoutMs?: number | undefined;
}

/**
 * A query waits at most this long for a connection; then it fails with DatabaseUnavailableError (a 503). A
 * database that refuses connections fails them at once; this bounds one that does not answer at all.
 */
export const PG_CONNECT_TIMEOUT_MS = 5_000;

export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//.test(url);
}

// better-sqlite3 cannot bind booleans; the schema stores them as 0/1 on SQLite.
function bindable(parameters: ReadonlyArray<unknown>): unknown[] {
  return parameters.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p));
}

// Kysely prepares every query afresh; preparing costs more than running a small indexed read, so the
// statements of the (few hundred) query shapes the app uses are kept, least recently used first out.
const STATEMENT_CACHE_SIZE = 500;

function wrapSqlite(raw: BetterSqlite3.Database): SqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>();
  const prepareCached = (query: string): BetterSqlite3.Statement => {
    let statement = cache.get(query);
    if (statement) {
      cache.delete(query);
    } else {
      statement = raw.prepare(query);
      if (cache.size >= STATEMENT_CACHE_SIZE) {
        const oldest = cache.keys().next();
        if (!oldest.done) cache.delete(oldest.value);
      }
    }
    cache.set(query, statement);
    return statement;
  };
  return {
    close: () => raw.close(),
    prepare(query: string): SqliteStatement {
      // Schema changes (migrations) invalidate prepared statements: never cache DDL.
      const statement = /^\s*(create|alter|drop)\b/i.test(query) ? raw.prepare(query) : prepareCached(query);
      // A cached statement may still be iterating for a stream; run this call on a fresh one then.
      const free = () => (statement.busy ? raw.prepare(query) : statement);
      return {
        reader: statement.reader,
        all: (parameters) => free().all(bindable(parameters)),
        run: (parameters) => free().run(bindable(parameters)),
        iterate: (parameters) => free().iterate(bindable(parameters)),
      };
    },
  };
}

export function createDatabase(options: DatabaseOptions): Database {
  if (isPostgresUrl(options.databaseUrl)) {
    // timestamptz values are read as ISO text, as SQLite stores them (db/pg-timestamps.ts); bigint values
    // keep pg's default (text) and are mapped in db/values.ts.
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      types: pgTypeParsers,
      max: options.pgPoolSize ?? 10,
      connectionTimeoutMillis: options.pgConnectTimeoutMs ?? PG_CONNECT_TIMEOUT_MS,
      // TCP keep-alive: a firewall or NAT between here and PostgreSQL does not drop an idle connection
      // silently, and one that died anyway is noticed.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    const outage = watchConnections(pool);
    // Hot queries as named prepared statements (docs/decisions/0041), as the SQLite path caches them.
    const prepared: PreparedState = { generation: 0 };
    pool.on('connect', (client) => {
      nameStatements(client, prepared);
      outage.adopt(client);
    });
    // A pool that cannot make a connection (refused, timed out, too many clients, the database not accepting
    // connections) fails the query with DatabaseUnavailableError; the next query tries a new connection.
    const connect = async () => {
      try {
        return await pool.connect();
      } catch (error) {
        outage.unreachable(error);
        throw new DatabaseUnavailableError(error);
      }
    };
    const { dialect, counter } = countingDialect(new PostgresDialect({ pool: { connect, end: () => pool.end() } }));
    const db = new Kysely<DB>({ dialect });
    return {
      db,
      dialect: 'postgres',
      sharedByProcesses: true,
      runsOnEventLoop: false,
      queries: counter,
      ping: () => ping(db),
      reportTo: (log) => outage.reportTo(log),
      close: () => db.destroy(),
    };
  }
  if (options.sqliteFile !== ':memory:') mkdirSync(path.dirname(options.sqliteFile), { recursive: true });
  const raw = new BetterSqlite3(options.sqliteFile);
  raw.pragma('journal_mode = WAL');
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  raw.pragma('synchronous = NORMAL');
  const { dialect, counter } = countingDialect(new SqliteDialect({ database: wrapSqlite(raw) }));
  const db = new Kysely<DB>({ dialect });
  return {
    db,
    dialect: 'sqlite',
    sharedByProcesses: false,
    runsOnEventLoop: true,
    queries: counter,
    ping: () => ping(db),
    // A file on this machine: no connection to lose.
    reportTo: () => undefined,
    close: () => db.destroy(),
  };
}

/**
 * Keeps the process alive and the log informed when PostgreSQL connections break (docs/decisions/0072). A
 * connection the server terminates (a restart, pg_terminate_backend, a failover, a pooler or firewall) makes
 * its pg client emit `error`: unheard, that event would end the process. Each client gets a listener (the
 * pool's own listens only while the client is idle); the pool drops a broken client when it is released and
 * makes a new connection for the next query. Statements failed by a lost connection become
 * DatabaseUnavailableError. The log gets a line per lost connection, one when connecting starts failing and
 * one when it works again (at warn: the default level shows them).
 */
function watchConnections(pool: pg.Pool) {
  let log = stderrLog;
  let unreachable = false;
  // Every idle client's error is heard by the client's own listener below (and logged there).
  pool.on('error', () => undefined);
  return {
    reportTo(next: DatabaseLog) {
      log = next;
    },
    unreachable(error: unknown) {
      if (unreachable) return;
      unreachable = true;
      log.warn({ db: describeDriverError(error) }, 'cannot connect to the database: answering 503 until it is back');
    },
    adopt(client: pg.PoolClient) {
      if (unreachable) {
        unreachable = false;
        log.warn({}, 'connected to the database again');
      }
      // One line per connection: an idle one reports its loss as an event, a busy one through its query.
      let lost = false;
      const reportLoss = (error: unknown) => {
        if (lost) return;
        lost = true;
        log.warn({ db: describeDriverError(error) }, 'a database connection was lost');
      };
      client.on('error', reportLoss);
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const result = query(...args);
        if (!(result instanceof Promise)) return result;
        return result.catch((error: unknown) => {
          if (!isConnectionLost(error)) throw error;
          reportLoss(error);
          throw new DatabaseUnavailableError(error);
        });
      };
    },
  };
}

async function ping(db: Kysely<DB>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

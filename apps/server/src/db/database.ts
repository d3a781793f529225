import { mkdirSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type SqliteDatabase, type SqliteStatement } from 'kysely';
import pg from 'pg';
import { nameStatements, type PreparedState } from './pg-prepared.js';
import { pgTypeParsers } from './pg-timestamps.js';
import { countingDialect, type QueryCounter } from './query-counter.js';
import type { DB } from './schema.js';

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
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A postgres:// URL selects PostgreSQL; otherwise SQLite at `sqliteFile`. */
  databaseUrl?: string | undefined;
  sqliteFile: string;
  /** PostgreSQL schema to use (tests isolate themselves in their own schema). */
  pgSchema?: string | undefined;
  pgPoolSize?: number | undefined;
}

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
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    // Hot queries as named prepared statements (docs/decisions/0041), as the SQLite path caches them.
    const prepared: PreparedState = { generation: 0 };
    pool.on('connect', (client) => nameStatements(client, prepared));
    const { dialect, counter } = countingDialect(new PostgresDialect({ pool }));
    const db = new Kysely<DB>({ dialect });
    return {
      db,
      dialect: 'postgres',
      sharedByProcesses: true,
      runsOnEventLoop: false,
      queries: counter,
      ping: () => ping(db),
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
    close: () => db.destroy(),
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

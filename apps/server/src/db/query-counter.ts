import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely';

/**
 * Counts every statement sent to the database, transaction control (begin, commit, rollback, savepoints)
 * included: the figure `npm run bench:journey` prints per journey and the query-count tests assert. The
 * count is one integer addition per statement, so it is always on.
 */
export interface QueryCounter {
  /** Statements sent since the database was opened. */
  readonly count: number;
  /** Called with each statement's text when set (tracing in the journey bench; tests). */
  onQuery?: ((sql: string) => void) | undefined;
}

class CountingConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly counted: (sql: string) => void,
  ) {}

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    this.counted(compiledQuery.sql);
    return this.inner.executeQuery<R>(compiledQuery);
  }

  streamQuery<R>(compiledQuery: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    this.counted(compiledQuery.sql);
    return this.inner.streamQuery<R>(compiledQuery, chunkSize);
  }
}

// The drivers run transaction control through the connection they are given (so it is counted there), but
// release a connection through private members of their own class: they get their own connection back.
const unwrap = (connection: DatabaseConnection): DatabaseConnection =>
  connection instanceof CountingConnection ? connection.inner : connection;

class CountingDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly counted: (sql: string) => void,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    return new CountingConnection(await this.inner.acquireConnection(), this.counted);
  }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }
  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }
  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }
  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    if (!this.inner.savepoint) throw new Error('savepoints are not supported by this driver');
    return this.inner.savepoint(connection, name, compile);
  }
  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    if (!this.inner.rollbackToSavepoint) throw new Error('savepoints are not supported by this driver');
    return this.inner.rollbackToSavepoint(connection, name, compile);
  }
  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    if (!this.inner.releaseSavepoint) throw new Error('savepoints are not supported by this driver');
    return this.inner.releaseSavepoint(connection, name, compile);
  }
  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(unwrap(connection));
  }
  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** The dialect with its driver wrapped to count statements, and the counter. */
export function countingDialect(dialect: Dialect): { dialect: Dialect; counter: QueryCounter } {
  const counter: { count: number; onQuery?: ((sql: string) => void) | undefined } = { count: 0 };
  const counted = (sql: string) => {
    counter.count += 1;
    counter.onQuery?.(sql);
  };
  return {
    counter,
    dialect: {
      createAdapter: () => dialect.createAdapter(),
      createDriver: () => new CountingDriver(dialect.createDriver(), counted),
      createQueryCompiler: () => dialect.createQueryCompiler(),
      createIntrospector: (db) => dialect.createIntrospector(db),
    },
  };
}

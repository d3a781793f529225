import { PostgresAdapter, sql, type Kysely, type RawBuilder, type SelectQueryBuilder, type Transaction } from 'kysely';
import type { DB } from './schema.js';

// Every SQL difference between SQLite and PostgreSQL that the modules need, behind named functions: modules
// write plain Kysely and never test the dialect (DESIGN.md convention 15).

function isPostgres(db: Kysely<DB>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** 'pg' or 'sqlite', for a cache key of something built per dialect (db/ only). */
export function dialectKey(db: Kysely<DB>): 'pg' | 'sqlite' {
  return isPostgres(db) ? 'pg' : 'sqlite';
}

/**
 * The rows a write transaction reads and then changes, locked against other transactions until it ends
 * (SELECT ... FOR UPDATE on PostgreSQL). SQLite needs no lock: it runs one write transaction at a time.
 */
export function forUpdate<DBT, TB extends keyof DBT, O>(
  db: Kysely<DB>,
  query: SelectQueryBuilder<DBT, TB, O>,
): SelectQueryBuilder<DBT, TB, O> {
  return isPostgres(db) ? query.forUpdate() : query;
}

/**
 * A subquery whose rows may not change key or be deleted until the transaction ends (FOR KEY SHARE on
 * PostgreSQL): a concurrent FOR UPDATE of them is waited for, and their new values read. SQLite runs one write
 * transaction at a time.
 */
export function forKeyShare<DBT, TB extends keyof DBT, O>(
  db: Kysely<DB>,
  query: SelectQueryBuilder<DBT, TB, O>,
): SelectQueryBuilder<DBT, TB, O> {
  return isPostgres(db) ? query.forKeyShare() : query;
}

/**
 * Locks the rows `query` selects until the transaction ends (PostgreSQL); on SQLite it does nothing and reads
 * nothing, as the transaction already excludes every other writer. Call it first in a write transaction whose
 * next statement reads what it locked.
 */
export async function lockForWrite<DBT, TB extends keyof DBT, O>(
  trx: Transaction<DB>,
  query: SelectQueryBuilder<DBT, TB, O>,
): Promise<void> {
  if (isPostgres(trx)) await query.forUpdate().execute();
}

/**
 * Holds the rows `query` selects until the transaction ends, for a writer that needs them to stay (FOR KEY SHARE
 * on PostgreSQL: it waits for a `lockForWrite` or `forUpdate` of them, which then waits for it, but holders of this
 * lock do not wait for one another); on SQLite it does nothing and reads nothing. A row deleted while this waited
 * is not held: the writes that follow must find it themselves.
 */
export async function lockForKeyShare<DBT, TB extends keyof DBT, O>(
  trx: Transaction<DB>,
  query: SelectQueryBuilder<DBT, TB, O>,
): Promise<void> {
  if (isPostgres(trx)) await query.forKeyShare().execute();
}

/**
 * lockForWrite for transactions that read and then write what hangs off a row, not the row's key (an
 * experiment's spend: its threads' costs and reservations, docs/decisions/0073): PostgreSQL's FOR NO KEY UPDATE,
 * which another such lock waits for but a reader holding only the row's key (FOR KEY SHARE, e.g. a join reading
 * its experiment's pin) does not. SQLite: nothing, as for lockForWrite.
 */
export async function lockForNoKeyWrite<DBT, TB extends keyof DBT, O>(
  trx: Transaction<DB>,
  query: SelectQueryBuilder<DBT, TB, O>,
): Promise<void> {
  if (isPostgres(trx)) await query.forNoKeyUpdate().execute();
}

/**
 * A text column ordered by its bytes (code points), the same on both databases: SQLite compares text that way,
 * PostgreSQL by the database's collation unless told otherwise.
 */
export function byteOrder(db: Kysely<DB>, column: RawBuilder<unknown>): RawBuilder<unknown> {
  return isPostgres(db) ? sql`${column} collate "C"` : column;
}

// Related rows read in the same statement as their parent: a JSON array column (json_agg on PostgreSQL,
// json_group_array on SQLite). Values keep their JSON types: timestamps come back as text (PostgreSQL's
// with an offset), which db/values.ts reads like SQLite's.

/** A JSON object of named values (`json_build_object` / `json_object`). */
export function jsonObjectOf(db: Kysely<DB>, entries: Record<string, RawBuilder<unknown>>): RawBuilder<unknown> {
  const pairs = Object.entries(entries).map(([name, value]) => sql`${sql.lit(name)}, ${value}`);
  return sql`${sql.raw(isPostgres(db) ? 'json_build_object' : 'json_object')}(${sql.join(pairs)})`;
}

/** A JSON object of `alias.column` for each column, keyed by the column's name. */
export function jsonObject(db: Kysely<DB>, alias: string, columns: readonly string[]): RawBuilder<unknown> {
  return jsonObjectOf(db, Object.fromEntries(columns.map((c) => [c, sql.ref(`${alias}.${c}`)])));
}

/** A JSON array of one object per row, '[]' when there is none (an aggregate: use it in a subquery's select). */
export function jsonArray(db: Kysely<DB>, object: RawBuilder<unknown>): RawBuilder<unknown> {
  return isPostgres(db) ? sql`coalesce(json_agg(${object}), '[]'::json)` : sql`json_group_array(${object})`;
}

/** A JSON column's value: pg parses json columns, SQLite returns their text. */
export function parsed<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/**
 * Runs `read` in one read-only transaction that sees one snapshot of the database: repeatable read on
 * PostgreSQL; SQLite's transaction on its one connection. On PostgreSQL every statement of it is planned for its
 * own parameters (docs/decisions/0050): a long read runs each page query several times, and after five runs of a
 * named statement (0041) PostgreSQL may switch to a generic plan, which for `user_id in (...2,000 ids)` costs two
 * to four times the CPU.
 */
export async function readSnapshot<T>(db: Kysely<DB>, read: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  const transaction = db.transaction();
  if (!isPostgres(db)) return transaction.execute(read);
  return transaction
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      await sql`set local plan_cache_mode = force_custom_plan`.execute(trx);
      return read(trx);
    });
}

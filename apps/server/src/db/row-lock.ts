import { PostgresAdapter, type SelectQueryBuilder, type Transaction } from 'kysely';
import type { DB } from './schema.js';

/**
 * Serialises the transactions that read and then write what hangs off a row (an experiment's spend: its
 * threads' costs and reservations): locks the rows `query` selects until the transaction ends. PostgreSQL:
 * FOR NO KEY UPDATE, which waits for another such lock but not for readers that only hold the row's key (FOR KEY
 * SHARE, e.g. a join reading its experiment's pin). SQLite needs nothing: it runs one write transaction at a time.
 */
export async function serializeOn<DBT, TB extends keyof DBT, O>(
  trx: Transaction<DB>,
  query: SelectQueryBuilder<DBT, TB, O>,
): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) await query.forNoKeyUpdate().execute();
}

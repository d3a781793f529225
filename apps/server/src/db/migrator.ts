import { Migrator, PostgresAdapter, sql, type Kysely, type MigrationResultSet } from 'kysely';
import { migrations } from './migrations/index.js';
import type { DB } from './schema.js';

/**
 * Brings the schema up to date; throws with the failing migration's name on error. On PostgreSQL with a
 * non-default search path, pass the schema: Kysely otherwise finds another schema's migration tables.
 */
export async function migrateToLatest(db: Kysely<DB>, options: { schema?: string } = {}): Promise<MigrationResultSet> {
  let schema = options.schema;
  if (!schema && db.getExecutor().adapter instanceof PostgresAdapter) {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    schema = rows[0]?.schema;
  }
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    // Branches developed in parallel add migrations with names that may sort before ones already run on a
    // database; each is independent of the others, so run any that are missing rather than refuse.
    allowUnorderedMigrations: true,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${String(result.error)}`, { cause: result.error });
  }
  return result;
}

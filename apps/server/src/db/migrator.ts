import { DEFAULT_MIGRATION_TABLE, Migrator, PostgresAdapter, sql, type Kysely, type MigrationResultSet } from 'kysely';
import { migrations } from './migrations/index.js';
import type { DB } from './schema.js';

/**
 * The migrator over our migrations. On PostgreSQL with a non-default search path, pass the schema (or it
 * is taken from `current_schema()`): Kysely otherwise finds another schema's migration tables.
 */
async function createMigrator(db: Kysely<DB>, schema?: string): Promise<Migrator> {
  let migrationTableSchema = schema;
  if (!migrationTableSchema && db.getExecutor().adapter instanceof PostgresAdapter) {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    migrationTableSchema = rows[0]?.schema;
  }
  return new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    // Branches developed in parallel add migrations with names that may sort before ones already run on a
    // database; each is independent of the others, so run any that are missing rather than refuse.
    allowUnorderedMigrations: true,
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
}

/** Brings the schema up to date; throws with the failing migration's name on error. */
export async function migrateToLatest(db: Kysely<DB>, options: { schema?: string } = {}): Promise<MigrationResultSet> {
  const migrator = await createMigrator(db, options.schema);
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${String(result.error)}`, { cause: result.error });
  }
  return result;
}

/**
 * Names of the migrations this code knows that the database has not applied yet: one read of Kysely's
 * migration table (in the current schema, where migrateToLatest keeps it), no catalogue introspection, so
 * the readiness check stays cheap. No migration table means nothing is applied.
 */
export async function pendingMigrations(db: Kysely<DB>, options: { schema?: string } = {}): Promise<string[]> {
  const table = sql.table(options.schema ? `${options.schema}.${DEFAULT_MIGRATION_TABLE}` : DEFAULT_MIGRATION_TABLE);
  let applied: Set<string>;
  try {
    const { rows } = await sql<{ name: string }>`select name from ${table}`.execute(db);
    applied = new Set(rows.map((r) => r.name));
  } catch {
    applied = new Set();
  }
  return Object.keys(migrations).filter((name) => !applied.has(name));
}

/** Brings the schema to the migration `name` (migration tests: data written before a later migration). */
export async function migrateTo(db: Kysely<DB>, name: string): Promise<MigrationResultSet> {
  return (await createMigrator(db)).migrateTo(name);
}

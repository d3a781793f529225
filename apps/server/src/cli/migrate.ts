import { migrateToLatest } from '../db/migrator.js';
import { loadConfigOrExit, openDatabase } from '../runtime/load.js';

// `npm run db:migrate`: brings the configured database (DATA_DIR SQLite or DATABASE_URL) up to date.
const config = loadConfigOrExit();
const database = openDatabase(config);
try {
  const result = await migrateToLatest(database.db);
  const applied = result.results?.filter((r) => r.status === 'Success').map((r) => r.migrationName) ?? [];
  console.log(applied.length > 0 ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.close();
}

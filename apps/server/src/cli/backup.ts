import { backupDatabase } from '../backup/backup.service.js';
import { loadConfigOrExit } from '../runtime/load.js';

// `npm run backup`: a timestamped backup of the configured database (same settings as `npm start`) in
// BACKUP_DIR, default DATA_DIR/backups. SQLite is copied online (no need to stop the server); PostgreSQL
// is dumped with pg_dump (custom format). Restore with `npm run restore -- <file> --yes`.
const config = loadConfigOrExit();
try {
  const file = await backupDatabase(config, new Date());
  console.log(`Backup written: ${file}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}

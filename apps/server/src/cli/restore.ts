import path from 'node:path';
import { parseArgs } from 'node:util';
import { restoreDatabase } from '../backup/backup.service.js';
import { describeDatabase, loadConfigOrExit } from '../runtime/load.js';

// `npm run restore -- <backup file> --yes`: replaces the configured database with a backup made by
// `npm run backup`. Stop the server first. What the database held before is kept as a backup of its own.
const USAGE = 'Usage: npm run restore -- <backup file> --yes [--force]';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { yes: { type: 'boolean' }, force: { type: 'boolean' }, help: { type: 'boolean' } },
});
const [file] = positionals;
if (values.help || !file || positionals.length > 1) {
  console.log(
    `${USAGE}\n  --yes    replace the database (required: this overwrites it)\n  --force  SQLite only: restore although the database looks open (after a crash)`,
  );
  process.exit(values.help ? 0 : 1);
}

const config = loadConfigOrExit();
// Relative paths are taken from where the command was typed (npm runs it in the server's folder).
const backup = path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
if (!values.yes) {
  console.error(
    `This replaces the database (${describeDatabase(config)}) with ${backup}.\nStop the server, then run again with --yes.`,
  );
  process.exit(1);
}
try {
  const { previous } = await restoreDatabase(config, backup, new Date(), { force: values.force ?? false });
  console.log(`Restored ${backup} into ${describeDatabase(config)}.`);
  if (previous) console.log(`What it held before is kept in ${previous}.`);
  console.log('Start the server again: npm start');
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}

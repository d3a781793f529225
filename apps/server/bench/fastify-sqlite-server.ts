import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import Fastify from 'fastify';

// Third reference for `npm run bench`: Fastify with no plugins answering one row read from SQLite (a WAL
// file, the statement prepared once, read by its unique pair of keys as the status read finds an assignment),
// with no authentication, no validation and no query builder. What a participant read that touches the
// database costs at the least with this framework and this database, next to what the app adds to it.
const dir = mkdtempSync(path.join(tmpdir(), 'studychat-bench-ref-'));
const db = new BetterSqlite3(path.join(dir, 'ref.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`create table assignments (
  id text primary key, user_id text not null, experiment_id text not null, completion_pathway text,
  completion_code text, completed_at text, unique (user_id, experiment_id))`);
db.prepare('insert into assignments (id, user_id, experiment_id) values (?, ?, ?)').run('a1', 'u1', 'e1');
const read = db.prepare('select * from assignments where user_id = ? and experiment_id = ?');

const app = Fastify({ logger: false });
app.get('/', async () => {
  const row = read.get('u1', 'e1') as { completion_pathway: string | null; completion_code: string | null } | undefined;
  return {
    alreadyCompleted: Boolean(row?.completion_pathway),
    completionPathway: row?.completion_pathway ?? null,
    completionCode: row?.completion_code ?? null,
  };
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (address && typeof address === 'object') process.stdout.write(JSON.stringify({ port: address.port }) + '\n');
process.on('SIGTERM', () => void app.close().then(() => (db.close(), process.exit(0))));

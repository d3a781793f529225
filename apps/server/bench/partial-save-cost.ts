import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDatabase, type Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { insertMessages, insertThreadIfAbsent, updateStreamingContents } from '../src/modules/chat/chat.repository.js';

/** One reply's save in a statement of its own, as the chat saved before 0058. */
async function updateStreamingContent(database: Database, id: string, content: string): Promise<void> {
  await database.db
    .updateTable('chat_messages')
    .set({ content })
    .where('id', '=', id)
    .where('status', '=', 'streaming')
    .execute();
}

// What the partial-reply saves cost (docs/decisions/0058): 200 streaming replies, each saved once a second
// (chat.routes.ts PERSIST_MS), is 200 single-row updates a second. This times those updates on SQLite (a file in
// WAL mode, as served) and on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL): Node CPU and wall time
// per save, the text growing as a reply's does.
//   npx tsx bench/partial-save-cost.ts [replies] [rounds]

const replies = Number(process.argv[2] ?? 200);
const rounds = Number(process.argv[3] ?? 10);

async function setUp(database: Database): Promise<string[]> {
  const { db } = database;
  const now = new Date().toISOString();
  const ids: string[] = [];
  const experimentId = randomUUID();
  await db
    .insertInto('experiments')
    .values({ id: experimentId, name: 'bench', description: null, created_at: now, updated_at: now })
    .execute();
  for (let i = 0; i < replies; i++) {
    const userId = randomUUID();
    await db
      .insertInto('users')
      .values({
        id: userId,
        email: `save-${i}-${userId}@bench.test`,
        password_hash: 'x',
        is_admin: false,
        metadata: null,
        created_at: now,
        updated_at: now,
        last_login_at: null,
      })
      .execute();
    const threadId = randomUUID();
    await insertThreadIfAbsent(db, { id: threadId, userId, experimentId, condition: 'mmr', title: 'bench', now });
    const id = randomUUID();
    await insertMessages(db, [
      {
        id,
        thread_id: threadId,
        position: 0,
        role: 'assistant',
        content: '',
        is_initial: false,
        status: 'streaming',
        created_at: now,
      },
    ]);
    ids.push(id);
  }
  return ids;
}

async function measure(name: string, database: Database, batched: boolean): Promise<void> {
  const ids = await setUp(database);
  const cpu = process.cpuUsage();
  const started = performance.now();
  // A round is one second of 200 streaming replies: each reply's text has grown by 40 tokens (~160 characters).
  for (let round = 1; round <= rounds; round++) {
    const text = 'word '.repeat(32 * round);
    if (batched)
      await updateStreamingContents(
        database.db,
        ids.map((id) => ({ id, content: text })),
      );
    else await Promise.all(ids.map((id) => updateStreamingContent(database, id, text)));
  }
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const saves = replies * rounds;
  const cpuUs = (used.user + used.system) / saves;
  console.log(
    `${name}, ${batched ? 'one statement a round' : 'one statement a save'}: ${saves} saves, Node CPU ${cpuUs.toFixed(0)} µs per save, wall ${((wallMs * 1000) / saves).toFixed(0)} µs per save;` +
      ` ${replies} replies saved once a second: ${((cpuUs * replies) / 10_000).toFixed(1)}% of one core`,
  );
}

const dir = mkdtempSync(path.join(tmpdir(), 'studychat-save-bench-'));
try {
  const sqlite = createDatabase({ sqliteFile: path.join(dir, 'bench.sqlite') });
  await migrateToLatest(sqlite.db);
  await measure('SQLite (file, WAL)', sqlite, false);
  await measure('SQLite (file, WAL)', sqlite, true);
  await sqlite.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (url) {
  const schema = `bench_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  try {
    const postgres = createDatabase({ databaseUrl: url, sqliteFile: '', pgSchema: schema, pgPoolSize: 10 });
    await migrateToLatest(postgres.db, { schema });
    await measure('PostgreSQL', postgres, false);
    await measure('PostgreSQL', postgres, true);
    await postgres.close();
  } finally {
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
} else {
  console.log('PostgreSQL: set BENCH_DATABASE_URL or TEST_DATABASE_URL to include it');
}

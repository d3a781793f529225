import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { TestClock } from '../../../test/app.js';
import { createTestDatabase, dropTestSchemas, TEST_DIALECTS } from '../../../test/databases.js';
import type { Database } from '../../db/database.js';
import { insertMessages, insertThreadIfAbsent } from './chat.repository.js';
import { PartialSaver } from './partial-saver.js';

afterAll(dropTestSchemas);

/** Replies being written (status streaming, no text yet), each in a thread of its own. */
async function streamingReplies(database: Database, count: number): Promise<string[]> {
  const { db } = database;
  const now = new Date().toISOString();
  const experimentId = randomUUID();
  await db
    .insertInto('experiments')
    .values({ id: experimentId, name: 'saves', description: null, created_at: now, updated_at: now })
    .execute();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const userId = randomUUID();
    await db
      .insertInto('users')
      .values({
        id: userId,
        email: `${userId}@saves.test`,
        password_hash: 'x',
        is_admin: false,
        metadata: null,
        created_at: now,
        updated_at: now,
        last_login_at: null,
      })
      .execute();
    const threadId = randomUUID();
    await insertThreadIfAbsent(db, { id: threadId, userId, experimentId, condition: 'mmr', title: 't', now });
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

describe.each(TEST_DIALECTS)('partial reply saves on %s', (dialect) => {
  async function setUp(count: number, perStatement?: number) {
    const database = await createTestDatabase(dialect);
    const ids = await streamingReplies(database, count);
    const clock = new TestClock();
    const errors: unknown[] = [];
    const statements: string[] = [];
    database.queries.onQuery = (statement) => statements.push(statement);
    const saver = new PartialSaver(database.db, clock.fn, 1000, (error) => errors.push(error), perStatement);
    const contents = async () => {
      const rows = await database.db.selectFrom('chat_messages').select(['id', 'content']).execute();
      return ids.map((id) => rows.find((r) => r.id === id)?.content);
    };
    return { database, ids, clock, errors, statements, saver, contents };
  }

  it('saves every reply that grew in one statement, once the interval has passed on the clock', async () => {
    const { database, ids, clock, errors, statements, saver, contents } = await setUp(3);
    try {
      const [a = '', b = '', c = ''] = ids;
      saver.note(a, 'One ');
      saver.note(b, 'Un ');
      clock.advance(999);
      saver.note(a, 'One two ');
      // forget resolves once the save in flight (if any) has finished; 'none' is no reply.
      await saver.forget('none');
      expect(statements).toHaveLength(0);
      expect(await contents()).toEqual(['', '', '']);

      statements.length = 0;
      clock.advance(1);
      saver.note(c, 'Eins ');
      await saver.forget('none');
      expect(statements).toHaveLength(1);
      expect(await contents()).toEqual(['One two ', 'Un ', 'Eins ']);

      // Only what grew since is written again.
      statements.length = 0;
      clock.advance(1000);
      saver.note(b, 'Un deux ');
      await saver.forget('none');
      expect(statements).toHaveLength(1);
      expect(statements[0]?.match(/when/g)).toHaveLength(1);
      expect(await contents()).toEqual(['One two ', 'Un deux ', 'Eins ']);
      expect(errors).toEqual([]);
    } finally {
      database.queries.onQuery = undefined;
      await database.close();
    }
  });

  it('never writes over a finished reply, and forgets a reply once it has ended', async () => {
    const { database, ids, clock, saver, contents } = await setUp(2);
    try {
      const [a = '', b = ''] = ids;
      saver.note(a, 'One ');
      saver.note(b, 'Un ');
      await database.db
        .updateTable('chat_messages')
        .set({ content: 'One two three.', status: 'complete' })
        .where('id', '=', a)
        .execute();
      clock.advance(1000);
      saver.note(b, 'Un deux ');
      await saver.forget(b);
      expect(await contents()).toEqual(['One two three.', 'Un deux ']);

      clock.advance(1000);
      saver.note(a, 'One two three. More');
      await saver.forget(a);
      expect(await contents()).toEqual(['One two three.', 'Un deux ']);
    } finally {
      await database.close();
    }
  });

  it('splits a large save into statements of a few replies, each in its own turn of the event loop', async () => {
    const { database, ids, clock, errors, statements, saver, contents } = await setUp(7, 3);
    try {
      for (const id of ids) saver.note(id, `text of ${id}`);
      clock.advance(1000);
      // A token arriving while the first statement runs (a macrotask) is served before the next statement.
      const events: string[] = [];
      database.queries.onQuery = (statement) => {
        if (statements.length === 0) setImmediate(() => events.push('token'));
        statements.push(statement);
        events.push('statement');
      };
      saver.note(ids[0] ?? '', 'grown');
      await saver.forget('none');
      expect(statements).toHaveLength(3);
      expect(statements.map((s) => s.match(/when/g)?.length)).toEqual([3, 3, 1]);
      expect(events).toEqual(['statement', 'token', 'statement', 'statement']);
      expect(await contents()).toEqual(ids.map((id, i) => (i === 0 ? 'grown' : `text of ${id}`)));
      expect(errors).toEqual([]);
    } finally {
      database.queries.onQuery = undefined;
      await database.close();
    }
  });
});

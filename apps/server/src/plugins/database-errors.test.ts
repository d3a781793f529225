import Fastify from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { createTestDatabase, dropTestSchemas, TEST_DIALECTS } from '../../test/databases.js';
import { buildExperiment, buildUser, insertUserRow } from '../../test/factories.js';
import { registerErrorHandler } from './error-handler.js';

/** Runs a write that the database refuses and returns what it threw. */
async function refused(write: () => Promise<unknown>): Promise<unknown> {
  try {
    await write();
  } catch (error) {
    return error;
  }
  throw new Error('the database accepted the write');
}

/** What a client gets when a route fails with this error: through the app's real error handler. */
async function replyFor(error: unknown) {
  const app = Fastify({ logger: false });
  registerErrorHandler(app);
  app.post('/write', () => Promise.reject(error as Error));
  const res = await app.inject({ method: 'POST', url: '/write', payload: {} });
  await app.close();
  return { status: res.statusCode, body: res.json<{ error: string; code: string }>() };
}

describe.each(TEST_DIALECTS)('database errors caused by input, on %s', (dialect) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.close();
    await dropTestSchemas();
  });

  it('a duplicate is a 409 CONFLICT that does not quote the value', async () => {
    const user = await insertUserRow(database.db);
    const error = await refused(() =>
      database.db
        .insertInto('users')
        .values(buildUser({ email: user.email }))
        .execute(),
    );
    const reply = await replyFor(error);
    expect(reply).toEqual({ status: 409, body: { error: 'This conflicts with an existing record', code: 'CONFLICT' } });
    expect(JSON.stringify(reply.body)).not.toContain(user.email);
  });

  it('a reference to a row that does not exist is a 409 CONFLICT', async () => {
    const error = await refused(() =>
      database.db
        .insertInto('sessions')
        .values({
          id: crypto.randomUUID(),
          user_id: crypto.randomUUID(),
          created_at: '2026-11-20T10:00:00.000Z',
          expires_at: '2026-11-20T11:00:00.000Z',
          revoked_at: null,
        })
        .execute(),
    );
    expect(await replyFor(error)).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
  });

  it('a missing required value is a 400 BAD_REQUEST', async () => {
    const error = await refused(() =>
      sql`insert into experiments (id, name, created_at, updated_at) values (${crypto.randomUUID()}, null, ${'2026-11-20T10:00:00.000Z'}, ${'2026-11-20T10:00:00.000Z'})`.execute(
        database.db,
      ),
    );
    expect(await replyFor(error)).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
  });

  if (dialect === 'postgres') {
    it('NUL in text and a value too long for its column are 400 BAD_REQUEST', async () => {
      for (const overrides of [{ name: 'bad\u0000name' }, { name: 'x'.repeat(500) }]) {
        const error = await refused(() =>
          database.db.insertInto('experiments').values(buildExperiment(overrides)).execute(),
        );
        const reply = await replyFor(error);
        expect(reply.status).toBe(400);
        expect(reply.body).toEqual({
          error: 'A value in the request cannot be stored (invalid characters, out of range or too long)',
          code: 'BAD_REQUEST',
        });
      }
    });
  }

  it('an error that is not about the data stays a 500 with nothing but INTERNAL', async () => {
    const error = await refused(() => sql`select * from no_such_table`.execute(database.db));
    expect(await replyFor(error)).toEqual({ status: 500, body: { error: 'Internal server error', code: 'INTERNAL' } });
  });
});

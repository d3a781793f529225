import { afterAll, beforeAll } from 'vitest';
import { createAndLogin, createTestApp, type TestApp, type TestUser } from './app.js';
import { dropTestSchemas, type TestDialect } from './databases.js';
import { startFakeProlific, type FakeProlific } from './fakes/prolific-fake.js';

/** A test app pointed at a fake Prolific, with an admin: filled in before the file's tests, closed after them. */
export interface FakeProlificApp {
  t: TestApp;
  fake: FakeProlific;
  admin: TestUser;
}

/**
 * Starts the fake Prolific and a test app that calls it (with a short time-out) once for the file's tests, and
 * closes both after them. The returned object's fields are set in its `beforeAll`.
 */
export function useFakeProlificApp(dialect: TestDialect): FakeProlificApp {
  const env = {} as FakeProlificApp;
  beforeAll(async () => {
    env.fake = await startFakeProlific();
    env.t = await createTestApp(dialect, { config: { prolific: { apiUrl: env.fake.url, timeoutMs: 2000 } } });
    env.admin = await createAndLogin(env.t, { isAdmin: true });
  });
  afterAll(async () => {
    await env.t.app.close();
    await env.t.database.close();
    await dropTestSchemas();
    await env.fake.close();
  });
  return env;
}

import type { AdminUser, Experiment } from '@studychat/contracts';
import { describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, newSession, useTestApp } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { insertUserRow } from '../../../test/factories.js';
import { send as call } from '../participants/journey.fixtures.js';

// Hostile tests of the admin area's scoping (docs/decisions/0087): a participant tied to a members-only
// experiment only by a study login is hidden from staff not on it, as if missing; staff accounts (an analyst
// included) stay listed; with many hidden experiments (a long IN list) the list still answers, in both orders.

describe.each(TEST_DIALECTS)('admin scoping, hostile, on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('hides one tied only by a study login; lists staff; answers with many hidden experiments', async () => {
    const db = t().database.db;
    const owner = await createAndLogin(t(), { isAdmin: true });
    const stranger = await createAndLogin(t(), { isAdmin: true });
    const analystRow = await insertUserRow(db, { role: 'analyst' });
    await newSession(t(), { id: String(analystRow.id), email: analystRow.email }, 'analyst');
    const create = async (name: string) =>
      expectJson<Experiment>(await call(t(), owner, 'POST', '/api/experiments', { name }), 201).id;
    const privateId = await create('Private by login');
    for (let i = 0; i < 40; i++) await create(`Private ${i}`);

    const loginOnly = await insertUserRow(db, { role: 'participant' });
    await db
      .insertInto('study_logins')
      .values({
        user_id: String(loginOnly.id),
        experiment_id: privateId,
        batch_id: 'batch-1',
        created_at: '2026-11-20T10:00:00.000Z',
      })
      .execute();

    const ids = async (query = '') =>
      expectJson<AdminUser[]>(await call(t(), stranger, 'GET', `/api/admin/users${query}`), 200).map((u) => u.id);
    const listed = await ids();
    expect(listed).not.toContain(String(loginOnly.id));
    expect(listed).toEqual(expect.arrayContaining([owner.id, stranger.id, String(analystRow.id)]));
    const page = await call(t(), stranger, 'GET', `/api/admin/users/${String(loginOnly.id)}`);
    expect(page.statusCode).toBe(404);
    expect(page.json()).toEqual(
      (await call(t(), stranger, 'GET', '/api/admin/users/00000000-0000-4000-8000-0000000000fe')).json(),
    );
    expect(await call(t(), owner, 'GET', `/api/admin/users/${String(loginOnly.id)}`).then((r) => r.statusCode)).toBe(
      200,
    );
  });
});

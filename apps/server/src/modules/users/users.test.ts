import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestApp, expectJson } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { generatePassword } from './password.js';
import { bootstrapAdmin } from './users.service.js';

describe.each(TEST_DIALECTS)('admin bootstrap on %s', (dialect) => {
  it('creates the admin from ADMIN_EMAIL/ADMIN_PASSWORD once; the admin can log in', async () => {
    const t = await createTestApp(dialect);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'boot-'));
    const first = await bootstrapAdmin(t.deps, { email: 'Lead@Lab.org', password: 'a-strong-password', dataDir });
    expect(first).toMatchObject({ created: true, email: 'lead@lab.org', generatedPassword: undefined });
    expect(await bootstrapAdmin(t.deps, { email: 'other@lab.org', password: 'another-password', dataDir })).toEqual({
      created: false,
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'lead@lab.org', password: 'a-strong-password' },
    });
    const token = expectJson<{ token: string }>(res, 200).token;
    const system = await t.app.inject({
      method: 'GET',
      url: '/api/admin/system',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(system.statusCode).toBe(200);
    await t.app.close();
    await t.database.close();
  });

  it('generates a password when none is configured and writes it to an owner-only file', async () => {
    const t = await createTestApp(dialect);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'boot-'));
    const result = await bootstrapAdmin(t.deps, { email: undefined, password: undefined, dataDir });
    if (!result.created || !result.generatedPassword || !result.passwordFile)
      throw new Error('expected a generated password');
    expect(result.generatedPassword).toHaveLength(24);
    expect(readFileSync(result.passwordFile, 'utf8')).toContain(result.generatedPassword);
    expect(statSync(result.passwordFile).mode & 0o777).toBe(0o600);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: result.email, password: result.generatedPassword },
    });
    expect(res.statusCode).toBe(200);
    await t.app.close();
    await t.database.close();
  });
});

describe('generatePassword', () => {
  it('draws from an alphabet without look-alike characters and does not repeat', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const p = generatePassword();
      expect(p).toMatch(/^[A-HJ-NP-Za-km-z2-9]{20}$/);
      seen.add(p);
    }
    expect(seen.size).toBe(200);
  });
});

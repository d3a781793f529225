import { describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, useTestApp } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';

describe.each(TEST_DIALECTS)('GET /api/admin/system on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('tells an admin that the scripted model is active', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const res = await t().app.inject({ method: 'GET', url: '/api/admin/system', headers: admin.headers });
    expect(expectJson(res, 200)).toEqual({
      llmProvider: 'scripted',
      llmModel: 'scripted-offline',
      scripted: true,
      budgetAlerts: [],
    });
  });

  it('refuses a participant with 403 and an anonymous caller with 401', async () => {
    const participant = await createAndLogin(t());
    const asParticipant = await t().app.inject({
      method: 'GET',
      url: '/api/admin/system',
      headers: participant.headers,
    });
    expect(expectJson(asParticipant, 403)).toEqual({ error: 'Admin access required', code: 'FORBIDDEN' });
    const anonymous = await t().app.inject({ method: 'GET', url: '/api/admin/system' });
    expect(anonymous.statusCode).toBe(401);
  });
});

import { describe, expect, it } from 'vitest';
import { studyDefinition, type StudyVersion } from '@studychat/contracts';
import { createAndLogin, expectJson, useTestApp } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { send } from '../participants/journey.fixtures.js';

type Issues = { issues: { path: string; message: string }[] };

describe.each(TEST_DIALECTS)('checking a study definition without saving on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('lists every problem with its path, the same as a refused save, and writes nothing', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const before = expectJson<StudyVersion[]>(await send(t(), admin, 'GET', '/api/admin/study-versions'), 200);
    const bad = structuredClone(studyDefinition) as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    bad.chat.conditions.mmr.settings = { temperature: 3 };
    bad.pre.questions[0].wording = '';
    const checked = expectJson<Issues>(
      await send(t(), admin, 'POST', '/api/admin/study-versions/check', { definition: bad }),
      200,
    );
    expect(checked.issues).toEqual([
      { path: 'pre.questions.0.wording', message: 'must not be empty' },
      { path: 'chat.conditions.mmr.settings.temperature', message: 'must be 0 to 2' },
    ]);
    const refused = expectJson<Issues & { code: string }>(
      await send(t(), admin, 'POST', '/api/admin/study-versions', { label: 'Bad', definition: bad }),
      400,
    );
    expect(refused.issues).toEqual(checked.issues);
    const good = await send(t(), admin, 'POST', '/api/admin/study-versions/check', { definition: studyDefinition });
    expect(expectJson<Issues>(good, 200)).toEqual({ issues: [] });
    const after = expectJson<StudyVersion[]>(await send(t(), admin, 'GET', '/api/admin/study-versions'), 200);
    expect(after.length).toBe(before.length);
  });

  it('refuses a body that is not a definition object with 400 and a code', async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    for (const body of [{}, { definition: [] }, { definition: 'x' }, { definition: {}, extra: 1 }]) {
      const reply = await send(t(), admin, 'POST', '/api/admin/study-versions/check', body);
      expect(reply.statusCode).toBe(400);
      expect(JSON.parse(reply.body)).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    }
  });
});

import { describe, expect, it } from 'vitest';
import { FLOW_TEMPLATES, studyDefinition, type StudyVersion } from '@studychat/contracts';
import { createAndLogin, expectJson, useTestApp } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { send } from '../participants/journey.fixtures.js';

// A study shared as a file (issue 31): a version's definition downloaded as JSON creates, uploaded, a version
// with exactly that definition, for each template and the built-in study.

const asFile = (definition: unknown) => `${JSON.stringify(definition, null, 2)}\n`;

describe.each(TEST_DIALECTS)('a study file on %s', (dialect) => {
  const t = useTestApp(dialect);

  it.each([...FLOW_TEMPLATES.map((f) => [f.id, f] as const), ['built-in', studyDefinition] as const])(
    'makes an identical version of the %s study',
    async (_id, definition) => {
      const admin = await createAndLogin(t(), { isAdmin: true });
      const create = async (label: string, body: unknown) =>
        expectJson<StudyVersion>(
          await send(t(), admin, 'POST', '/api/admin/study-versions', { label, definition: body }),
          201,
        );
      const first = await create('First', definition);
      const stored = expectJson<StudyVersion>(
        await send(t(), admin, 'GET', `/api/admin/study-versions/${first.id}`),
        200,
      );
      // What the page downloads, read back as the upload reads it.
      const uploaded = await create('From the file', JSON.parse(asFile(stored.definition)) as unknown);
      const again = expectJson<StudyVersion>(
        await send(t(), admin, 'GET', `/api/admin/study-versions/${uploaded.id}`),
        200,
      );
      expect(again.definition).toEqual(stored.definition);
      expect(again.definition).toEqual(definition);
    },
  );
});

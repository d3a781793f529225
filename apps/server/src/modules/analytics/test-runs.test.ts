import ExcelJS from 'exceljs';
import { strFromU8, unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, useTestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { at, insertExperimentRow, seedParticipant, type SeededParticipant } from '../../../test/factories.js';
import { csvObjects } from './parse-csv.testing.js';

// Test runs ("preview as participant", assignments.is_test) are left out of every download by default and
// only included with ?include_tests=true (docs/decisions/0027).

describe.each(TEST_DIALECTS)('test runs in the downloads on %s', (dialect) => {
  const t = useTestApp(dialect);
  let admin: TestUser;
  let experimentId: string;
  let real: SeededParticipant;
  let preview: SeededParticipant;

  beforeAll(async () => {
    admin = await createAndLogin(t(), { isAdmin: true });
    const db = t().database.db;
    experimentId = (await insertExperimentRow(db)).id;
    const spec = (pid: string, text: string, isTest: boolean, minute: number) => ({
      assignment: {
        prolific_pid: pid,
        assigned_condition: 'mmr' as const,
        consent_given: true,
        is_test: isTest,
        created_at: at(minute),
      },
      entry: 'questions' as const,
      baseline: 4,
      views: [{ seconds: 16 }],
      chat: [
        { role: 'assistant' as const, content: 'Hello' },
        { role: 'user' as const, content: text },
      ],
    });
    real = await seedParticipant(db, experimentId, spec('PID-REAL', 'real words', false, 1));
    preview = await seedParticipant(db, experimentId, spec('PID-PREVIEW', 'preview words', true, 2));
    await db
      .insertInto('journey_events')
      .values(
        [real, preview].map((p) => ({
          experiment_id: experimentId,
          user_id: p.user.id,
          assignment_id: p.assignment.id,
          type: 'joined',
          step: 'consent',
          data: null,
          created_at: at(1),
        })),
      )
      .execute();
  });

  const get = (path: string, query = '') =>
    t().app.inject({ method: 'GET', url: `/api/experiments/${experimentId}/${path}${query}`, headers: admin.headers });

  async function packageFiles(query = ''): Promise<Record<string, string>> {
    const res = await get('export-package', query);
    expect(res.statusCode).toBe(200);
    const entries = unzipSync(new Uint8Array(res.rawPayload));
    return Object.fromEntries(Object.entries(entries).map(([name, bytes]) => [name, strFromU8(bytes)]));
  }

  const users = (csv: string | undefined) => [...new Set(csvObjects(csv ?? '').map((r) => r.user_id))];

  it('leaves the test run out of every file of the package by default, and says so in datapackage.json', async () => {
    const files = await packageFiles();
    for (const file of ['participants.csv', 'messages.csv', 'surveys.csv', 'page_times.csv', 'events.csv']) {
      expect(users(files[file]), file).toEqual([real.user.id]);
    }
    expect(csvObjects(files['participants.csv'] ?? '')[0]).toMatchObject({ is_test: 'FALSE' });
    const descriptor = JSON.parse(files['datapackage.json'] ?? '') as { studychat: Record<string, unknown> };
    expect(descriptor.studychat.includes_test_runs).toBe(false);
    expect(files['codebook.csv']).toContain('include_tests=true');
  });

  it('includes the test run, flagged, when asked with include_tests=true', async () => {
    const files = await packageFiles('?include_tests=true');
    for (const file of ['participants.csv', 'messages.csv', 'surveys.csv', 'page_times.csv', 'events.csv']) {
      expect(new Set(users(files[file])), file).toEqual(new Set([real.user.id, preview.user.id]));
    }
    const flags = csvObjects(files['participants.csv'] ?? '').map((r) => [r.prolific_pid, r.is_test]);
    expect(flags).toEqual([
      ['PID-REAL', 'FALSE'],
      ['PID-PREVIEW', 'TRUE'],
    ]);
    const descriptor = JSON.parse(files['datapackage.json'] ?? '') as { studychat: Record<string, unknown> };
    expect(descriptor.studychat.includes_test_runs).toBe(true);
  });

  it('does the same for the single CSV files, the transcripts and the spreadsheet copy', async () => {
    for (const file of ['participants.csv', 'messages.csv', 'surveys.csv']) {
      expect(users((await get(`export/${file}`)).body), file).toEqual([real.user.id]);
      const all = users((await get(`export/${file}`, '?include_tests=true')).body);
      expect(new Set(all), file).toEqual(new Set([real.user.id, preview.user.id]));
    }
    const texts = async (query: string) =>
      csvObjects((await get('export-transcripts', query)).body)
        .map((r) => r.text)
        .sort();
    expect(await texts('')).toEqual(['Hello', 'real words']);
    expect(await texts('?include_tests=true')).toEqual(['Hello', 'Hello', 'preview words', 'real words']);
    const sheetRows = async (query: string) => {
      const res = await get('export-spreadsheet', query);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      return workbook.getWorksheet('participants')?.actualRowCount;
    };
    expect(await sheetRows('')).toBe(2);
    expect(await sheetRows('?include_tests=true')).toBe(3);
  });

  it('refuses a malformed option (400) and records the choice in the audit log', async () => {
    expect(expectJson<{ code: string }>(await get('export-package', '?include_tests=yes'), 400).code).toBe(
      'VALIDATION_FAILED',
    );
    expect(expectJson<{ code: string }>(await get('export/messages.csv', '?include_tests=1'), 400).code).toBe(
      'VALIDATION_FAILED',
    );
    await get('export-transcripts', '?include_tests=true');
    const audit = await t()
      .database.db.selectFrom('audit_log')
      .where('action', '=', 'export.download')
      .select('details')
      .execute();
    const details = audit.map((a) => JSON.parse(String(a.details)) as { file: string; includeTests?: boolean });
    expect(details).toContainEqual({ file: 'transcripts-redacted.csv', includeTests: true });
    expect(details).toContainEqual({ file: 'data-package.zip' });
  });
});

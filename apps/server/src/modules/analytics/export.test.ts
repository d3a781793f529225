import { EXPORT_FILES } from '@studychat/contracts';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, useTestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import {
  at,
  buildParticipantRows,
  insertExperimentRow,
  insertParticipantRows,
  seedParticipant,
  type SeededParticipant,
} from '../../../test/factories.js';
import { codebookEntries } from './codebook.js';
import { messagesCsv, participantsCsv, surveysCsv } from './export.service.js';
import { csvObjects, parseCsv } from './parse-csv.testing.js';

// Chat content that breaks naive CSV writers or runs as a formula in a spreadsheet.
const TRICKY = [
  'Hello, world',
  'She said "hi" and left',
  'line one\nline two',
  'windows\r\nline',
  'emoji 😀🎉 ünïcödé',
  '=HYPERLINK("http://evil.example","click")',
  '+1',
  '-2',
  '@SUM(A1:A2)',
  '\tstarts with a tab',
  "'=x",
  '=1+1',
  'NA',
  'مرحبا بالعالم',
];

async function collect(generator: AsyncGenerator<string>): Promise<string> {
  let text = '';
  for await (const chunk of generator) text += chunk;
  return text;
}

describe.each(TEST_DIALECTS)('CSV exports on %s', (dialect) => {
  const t = useTestApp(dialect);
  let admin: TestUser;
  let participant: TestUser;
  let experimentId: string;
  let tricky: SeededParticipant;
  let dropout: SeededParticipant;

  beforeAll(async () => {
    admin = await createAndLogin(t(), { isAdmin: true });
    participant = await createAndLogin(t());
    const db = t().database.db;
    experimentId = (await insertExperimentRow(db)).id;
    tricky = await seedParticipant(db, experimentId, {
      user: { email: 'tricky@study.test', last_login_at: at(50) },
      assignment: {
        prolific_pid: '=cmd|calc',
        study_id: 'STUDY-1',
        session_id: 'SESSION-1',
        assigned_condition: 'mmr',
        stratum: '5-6',
        condition_assigned_at: at(5),
        consent_given: true,
        consent_timestamp: at(2),
        completion_pathway: 'complete',
        completion_code: 'C-COMPLETE',
        completed_at: at(40),
      },
      entry: 'questions',
      baseline: 6,
      pre: { age: '25-34', sex: 'female', political_leaning: 'moderate' },
      post: 2,
      exposures: [{ seconds: 16.5 }, { seconds: 12, minSeconds: 20 }, { seconds: 41 }, { seconds: 30 }],
      chat: [
        {
          role: 'assistant',
          content: 'Welcome, parent!',
          overrides: {
            thinking_log: JSON.stringify([{ type: 'thinking', thinking: 'Greet, then "listen".' }]),
            input_tokens: 1000,
            output_tokens: 200,
            uncached_input_tokens: 100,
            cache_write_tokens: 150,
            cache_read_tokens: 750,
            cost_usd: 0.25,
          },
        },
        ...TRICKY.map((content) => ({ role: 'user' as const, content })),
        {
          role: 'assistant',
          content: 'Thanks.',
          overrides: { status: 'error' as const, error_message: 'Model timed out', cost_usd: null },
        },
      ],
    });
    dropout = await seedParticipant(db, experimentId, {
      assignment: { created_at: at(3) },
      entry: 'confirm',
    });
  });

  const get = (url: string, headers = admin.headers) => t().app.inject({ method: 'GET', url, headers });
  const exportUrl = (file: string, id = experimentId) => `/api/experiments/${id}/export/${file}`;

  it('sends each file as a UTF-8 CSV attachment named after the experiment', async () => {
    for (const file of EXPORT_FILES) {
      const res = await get(exportUrl(file));
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="experiment-${experimentId}-${file}"`);
      expect(res.headers['cache-control']).toBe('no-store');
      // No byte-order mark: R's read.csv and pandas read the header as is.
      expect(res.rawPayload[0]).not.toBe(0xef);
      expect(parseCsv(res.body).length).toBeGreaterThan(1);
    }
  });

  it('exports server-timed sections (opening to finish on the server clock) beside older browser-timed ones', async () => {
    const db = t().database.db;
    const other = (await insertExperimentRow(db)).id;
    const timed = await seedParticipant(db, other, {
      assignment: { assigned_condition: 'control' },
      views: [{ seconds: 15.25 }, { seconds: 20, minSeconds: 20 }],
    });
    const legacy = await seedParticipant(db, other, { exposures: [{ seconds: 9 }] });
    const rows = csvObjects((await get(exportUrl('participants.csv', other))).body);
    const byUser = new Map(rows.map((r) => [r.user_id, r]));
    expect(byUser.get(timed.user.id)).toMatchObject({
      section_1_seconds: '15.25',
      section_1_min_met: 'TRUE',
      section_2_seconds: '20',
      section_2_min_met: 'TRUE',
      section_3_seconds: '',
    });
    expect(byUser.get(legacy.user.id)).toMatchObject({ section_1_seconds: '9', section_1_min_met: 'FALSE' });
  });

  it('writes one participants.csv row per participant with every measure, nulls as empty cells', async () => {
    const rows = csvObjects((await get(exportUrl('participants.csv'))).body);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual({
      experiment_id: experimentId,
      user_id: tricky.user.id,
      email: 'tricky@study.test',
      assignment_id: tricky.assignment.id,
      prolific_pid: '=cmd|calc',
      study_id: 'STUDY-1',
      session_id: 'SESSION-1',
      condition: 'mmr',
      stratum: '5-6',
      condition_assigned_at: at(5),
      assignment_created_at: at(1),
      last_login_at: at(50),
      consent_given: 'TRUE',
      consent_timestamp: at(2),
      entry_choice: 'questions',
      baseline_intention: '6',
      age: '25-34',
      sex: 'female',
      political_leaning: 'moderate',
      section_1_seconds: '16.5',
      section_1_min_met: 'TRUE',
      section_2_seconds: '12',
      section_2_min_met: 'FALSE',
      section_3_seconds: '41',
      section_3_min_met: 'TRUE',
      section_4_seconds: '30',
      section_4_min_met: 'TRUE',
      chat_turns: String(TRICKY.length),
      user_char_count: String(TRICKY.reduce((n, m) => n + m.trim().length, 0)),
      chat_points: String(TRICKY.length * 10 + TRICKY.reduce((n, m) => n + m.trim().length, 0) * 0.5),
      chat_complete: 'TRUE',
      chat_closed_by: '',
      assistant_messages: '2',
      assistant_input_tokens: '1100',
      assistant_output_tokens: '250',
      assistant_cost_usd: '0.25',
      post_intent: '2',
      delta: '-4',
      intervention_completed_at: '',
      completion_pathway: 'complete',
      completion_code: 'C-COMPLETE',
      completed_at: at(40),
      status: 'completed',
      pathway: 'complete',
      randomisation_block: '',
      randomisation_position: '',
      // Section 2 took 12 of its 20 seconds.
      all_sections_min_met: 'FALSE',
      duplicate_prolific_pid: 'FALSE',
      // Browser-timed sections from before the server timed them carry no visible/hidden seconds.
      hidden_time_share: '',
      paste_attempts: '0',
      pasted_in_chat: 'FALSE',
      is_test: 'FALSE',
      study_version_id: '',
    });
    expect(rows[1]).toMatchObject({
      user_id: dropout.user.id,
      condition: '',
      consent_given: 'FALSE',
      entry_choice: 'confirm',
      baseline_intention: '',
      section_1_seconds: '',
      section_1_min_met: '',
      // Never reached the chat: its measures are missing, not zero.
      chat_turns: '',
      user_char_count: '',
      chat_points: '',
      chat_complete: '',
      assistant_messages: '',
      assistant_input_tokens: '',
      assistant_cost_usd: '',
      post_intent: '',
      delta: '',
      completion_pathway: '',
      pathway: 'confirm',
      all_sections_min_met: '',
      duplicate_prolific_pid: '',
    });
  });

  it('writes every chat message with RFC 4180 quoting and the text exactly as sent', async () => {
    const res = await get(exportUrl('messages.csv'));
    // Line breaks stay inside quoted fields, exactly as typed.
    expect(res.body).toContain('"line one\nline two"');
    expect(res.body).toContain('"windows\r\nline"');
    const rows = csvObjects(res.body);
    expect(rows).toHaveLength(TRICKY.length + 2);
    expect(rows.map((r) => r.position)).toEqual(rows.map((_, i) => String(i)));
    const userContents = rows.filter((r) => r.role === 'user').map((r) => r.content);
    expect(userContents).toEqual(TRICKY);
    expect(rows[0]).toEqual({
      experiment_id: experimentId,
      user_id: tricky.user.id,
      prolific_pid: '=cmd|calc',
      condition: 'mmr',
      thread_id: tricky.threadId,
      message_id: tricky.messageIds[0],
      position: '0',
      role: 'assistant',
      content: 'Welcome, parent!',
      created_at: at(10),
      is_initial: 'TRUE',
      status: 'complete',
      error_message: '',
      model: 'scripted-offline',
      input_tokens: '1000',
      output_tokens: '200',
      usage_estimated: 'FALSE',
      uncached_input_tokens: '100',
      cache_write_tokens: '150',
      cache_read_tokens: '750',
      cost_usd: '0.25',
      queue_ms: '',
      fallback_from: '',
      first_token_ms: '120',
      total_ms: '900',
      stop_reason: 'end_turn',
      thinking: '[{"type":"thinking","thinking":"Greet, then \\"listen\\"."}]',
    });
    expect(rows.at(-1)).toMatchObject({ status: 'error', error_message: 'Model timed out', cost_usd: '' });
    expect(rows[1]).toMatchObject({ role: 'user', is_initial: 'FALSE', model: '', input_tokens: '', thinking: '' });
    expect(rows[1]).toMatchObject({ uncached_input_tokens: '', cache_write_tokens: '', cache_read_tokens: '' });
  });

  it('writes surveys.csv in long format, one row per answer', async () => {
    const rows = csvObjects((await get(exportUrl('surveys.csv'))).body);
    const mine = rows.filter((r) => r.user_id === tricky.user.id);
    expect(mine.map((r) => [r.survey_type, r.question, r.value, r.submitted_at])).toEqual([
      ['entry', 'choice', 'questions', at(2)],
      ['baseline', 'vaccination_intention', '6', at(3)],
      ['pre', 'age', '25-34', at(4)],
      ['pre', 'sex', 'female', at(4)],
      ['pre', 'political_leaning', 'moderate', at(4)],
      ['post', 'post_intent', '2', at(30)],
    ]);
    expect(mine.every((r) => r.prolific_pid === '=cmd|calc' && r.experiment_id === experimentId)).toBe(true);
    expect(rows.filter((r) => r.user_id === dropout.user.id).map((r) => [r.question, r.value])).toEqual([
      ['choice', 'confirm'],
    ]);
  });

  it('has a codebook listing exactly the columns of each file, with a meaning for each', async () => {
    const codebook = csvObjects((await get(exportUrl('codebook.csv'))).body);
    expect(codebook.length).toBe(codebookEntries().length);
    for (const file of ['participants.csv', 'messages.csv', 'surveys.csv']) {
      const header = parseCsv((await get(exportUrl(file))).body)[0];
      expect(codebook.filter((e) => e.file === file).map((e) => e.column)).toEqual(header);
    }
    expect(new Set(codebook.map((e) => e.file))).toEqual(new Set(['participants.csv', 'messages.csv', 'surveys.csv']));
    expect(codebook.every((e) => Boolean(e.meaning) && Boolean(e.type))).toBe(true);
    expect(codebook.find((e) => e.column === 'condition')?.allowed_values).toBe('mmr; control');
    expect(codebook.find((e) => e.column === 'delta')?.allowed_values).toBe('-6 to 6');
    // The MMR study names no pathways: the spec's words, unchanged (docs/decisions/0056).
    expect(codebook.find((e) => e.column === 'completion_pathway')?.meaning).toBe(
      "How the participant finished: 'complete' (whole study), 'confirm' (no concerns at entry), 'ceiling' (baseline intention 7); empty if not finished",
    );
    expect(codebook.find((e) => e.column === 'chat_complete')?.type).toBe('boolean (TRUE/FALSE)');
  });

  it('exports an experiment without data as a header only, and 404 for an unknown experiment', async () => {
    const empty = (await insertExperimentRow(t().database.db, { name: 'Empty' })).id;
    for (const file of ['participants.csv', 'messages.csv', 'surveys.csv']) {
      expect(parseCsv((await get(exportUrl(file, empty))).body)).toHaveLength(1);
    }
    const missing = await get(exportUrl('participants.csv', crypto.randomUUID()));
    expect(expectJson(missing, 404)).toEqual({ error: 'Experiment not found', code: 'NOT_FOUND' });
  });

  it('leaves intervention_completed_at empty for a screened-out participant, even if a time was stored', async () => {
    const db = t().database.db;
    const other = (await insertExperimentRow(db)).id;
    const screened = await seedParticipant(db, other, {
      assignment: {
        completion_pathway: 'ceiling',
        completion_code: 'C-CEIL',
        completed_at: at(9),
        intervention_completed_timestamp: at(9),
      },
      entry: 'questions',
      baseline: 7,
    });
    const row = csvObjects((await get(exportUrl('participants.csv', other))).body)[0];
    expect(row).toMatchObject({
      user_id: screened.user.id,
      completion_pathway: 'ceiling',
      intervention_completed_at: '',
      chat_turns: '',
      chat_complete: '',
    });
  });

  it('sends a spreadsheet-safe .xlsx with one sheet per file, formula-looking text prefixed', async () => {
    const res = await get(`/api/experiments/${experimentId}/export-spreadsheet`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="experiment-${experimentId}-spreadsheet-safe.xlsx"`,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['participants', 'messages', 'surveys', 'codebook']);
    const messages = workbook.getWorksheet('messages');
    const header = (messages?.getRow(1).values as unknown[]).slice(1);
    const content = header.indexOf('content') + 1;
    const texts: unknown[] = [];
    messages?.eachRow((row, n) => {
      if (n > 1) texts.push(row.getCell(content).value);
    });
    expect(texts).toContain('\'=HYPERLINK("http://evil.example","click")');
    // Not formula-looking: kept as is.
    expect(texts).toContain("'=x");
    expect(texts).toContain("'-2");
    expect(texts).toContain('NA');
    expect(texts).toContain('Hello, world');
    const participants = workbook.getWorksheet('participants');
    const pHeader = (participants?.getRow(1).values as unknown[]).slice(1);
    const row2 = participants?.getRow(2);
    expect(row2?.getCell(pHeader.indexOf('delta') + 1).value).toBe(-4);
    expect(row2?.getCell(pHeader.indexOf('chat_complete') + 1).value).toBe(true);
    expect(row2?.getCell(pHeader.indexOf('prolific_pid') + 1).value).toBe("'=cmd|calc");
    const missing = await get(`/api/experiments/${crypto.randomUUID()}/export-spreadsheet`);
    expect(expectJson(missing, 404)).toEqual({ error: 'Experiment not found', code: 'NOT_FOUND' });
  });

  it('rejects an unknown file name with 400', async () => {
    for (const file of ['secrets.csv', 'participants.json', '..%2Fetc%2Fpasswd']) {
      expect(expectJson<{ code: string }>(await get(exportUrl(file)), 400).code).toBe('VALIDATION_FAILED');
    }
  });

  it('refuses a participant (403) and an anonymous caller (401)', async () => {
    for (const file of EXPORT_FILES) {
      expect(expectJson<{ code: string }>(await get(exportUrl(file), participant.headers), 403).code).toBe('FORBIDDEN');
      expect((await t().app.inject({ method: 'GET', url: exportUrl(file) })).statusCode).toBe(401);
    }
  });

  describe('a study with thousands of rows', () => {
    const PARTICIPANTS = 2500;
    let bigId: string;

    beforeAll(async () => {
      const db = t().database.db;
      bigId = (await insertExperimentRow(db, { name: 'Big' })).id;
      // Every assignment has the same created_at, so pages are told apart by id alone.
      const rows = Array.from({ length: PARTICIPANTS }, (_, i) =>
        buildParticipantRows(bigId, {
          assignment: { assigned_condition: i % 2 ? 'mmr' : 'control' },
          baseline: (i % 6) + 1,
          post: (i % 7) + 1,
          chat: [
            { role: 'assistant', content: `Hello ${i}` },
            { role: 'user', content: `Question, number ${i}` },
          ],
        }),
      );
      await insertParticipantRows(db, rows);
    });

    it('streams every row across many pages', async () => {
      const participants = (await get(exportUrl('participants.csv', bigId))).body;
      const messages = (await get(exportUrl('messages.csv', bigId))).body;
      const surveys = (await get(exportUrl('surveys.csv', bigId))).body;
      expect(parseCsv(participants)).toHaveLength(PARTICIPANTS + 1);
      expect(parseCsv(messages)).toHaveLength(2 * PARTICIPANTS + 1);
      expect(parseCsv(surveys)).toHaveLength(2 * PARTICIPANTS + 1);
      const ids = csvObjects(participants).map((r) => r.user_id);
      expect(new Set(ids).size).toBe(PARTICIPANTS);
      // The participants' messages are read in pages of 2,000: every one is counted once.
      const detailed = expectJson<{ chat_turns: number }[]>(
        await get(`/api/experiments/${bigId}/participants-detailed`),
        200,
      );
      expect(detailed).toHaveLength(PARTICIPANTS);
      expect(detailed.every((r) => r.chat_turns === 1)).toBe(true);
    });
  });

  it('gives the same file whatever the page size (no row skipped or repeated at page edges)', async () => {
    const db = t().database.db;
    const id = (await insertExperimentRow(db, { name: 'Pages' })).id;
    // Ties everywhere: same enrolment time, same thread start, same survey time.
    const rows = Array.from({ length: 12 }, (_, i) =>
      buildParticipantRows(id, {
        entry: 'questions',
        baseline: (i % 6) + 1,
        pre: { age: '35-44', sex: 'male', political_leaning: 'liberal' },
        chat: [
          { role: 'assistant', content: `Hello ${i}` },
          { role: 'user', content: `Question ${i}` },
          { role: 'assistant', content: `Answer ${i}` },
        ],
      }),
    );
    await insertParticipantRows(db, rows);
    const files = [
      [participantsCsv, 12],
      [messagesCsv, 12],
      [surveysCsv, 36],
    ] as const;
    for (const [generator, parentRows] of files) {
      const whole = await collect(generator(db, id, 1000));
      for (const pageSize of [1, 5, parentRows - 1, parentRows, parentRows + 1]) {
        expect(await collect(generator(db, id, pageSize))).toBe(whole);
      }
    }
    expect(parseCsv(await collect(messagesCsv(db, id, 5)))).toHaveLength(37);
  });
});

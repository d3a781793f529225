import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAndLogin, useTestApp } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { at, insertExperimentRow, seedParticipant } from '../../../test/factories.js';
import { readmeSnippet, run } from './readers.testing.js';

// The R and pandas code of docs/running-a-study.md, taken from that page itself (so the test checks the documented code), run
// by the real R (`Rscript`, Debian r-base-core) and pandas (Debian python3-pandas under /usr/bin/python3) on
// a package this server wrote from each database: column types, row counts and exact text. .ci/run installs both.

/** Text R's and pandas' defaults would change: NA strings, formulas, quotes, line breaks, emoji, RTL. */
const MESSAGES = [
  'NA',
  'N/A',
  'NULL',
  '=1+1',
  "'=x",
  '-6 to 6',
  'He said "no", then left, again',
  'line one\nline two',
  'emoji 😀👩‍👧',
  'مرحبا بالعالم، هل اللقاح آمن؟',
  'TRUE',
];

const hex = (text: string) => Buffer.from(text, 'utf8').toString('hex');

describe.each(TEST_DIALECTS)('docs/running-a-study.md reads the data package in R and pandas (%s)', (dialect) => {
  const t = useTestApp(dialect);
  let dir: string;

  beforeAll(async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const db = t().database.db;
    const experimentId = (await insertExperimentRow(db)).id;
    await seedParticipant(db, experimentId, {
      assignment: { prolific_pid: 'NA', assigned_condition: 'mmr', consent_given: true, consent_timestamp: at(1) },
      entry: 'questions',
      baseline: 4,
      pre: { age: '25-34', sex: 'female', political_leaning: 'moderate' },
      views: [{ seconds: 16 }],
      chat: [
        { role: 'assistant', content: 'Hello' },
        ...MESSAGES.map((content) => ({ role: 'user' as const, content })),
      ],
    });
    // Never reached the chat: the chat counts are missing, not 0.
    await seedParticipant(db, experimentId, { assignment: { prolific_pid: '=1+1', created_at: at(2) } });
    const res = await t().app.inject({
      method: 'GET',
      url: `/api/experiments/${experimentId}/export-package`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    dir = mkdtempSync(path.join(tmpdir(), 'studychat-readers-'));
    mkdirSync(path.join(dir, 'data'));
    for (const [name, bytes] of Object.entries(unzipSync(new Uint8Array(res.rawPayload)))) {
      writeFileSync(path.join(dir, 'data', name), bytes);
    }
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('in R: logical, integer and text columns, missing only where empty, every message byte for byte', () => {
    const script = `${readmeSnippet('r')}
hex <- function(x) vapply(x, function(s) if (is.na(s)) "NA" else paste(as.character(charToRaw(enc2utf8(s))), collapse = ""), "")
cat("participants_rows=", nrow(participants), "\\n", sep = "")
cat("messages_rows=", nrow(messages), "\\n", sep = "")
cat("class_chat_complete=", class(participants$chat_complete), "\\n", sep = "")
cat("class_chat_turns=", class(participants$chat_turns), "\\n", sep = "")
cat("class_prolific_pid=", class(participants$prolific_pid), "\\n", sep = "")
cat("chat_turns=", paste(participants$chat_turns, collapse = ","), "\\n", sep = "")
cat("chat_complete=", paste(participants$chat_complete, collapse = ","), "\\n", sep = "")
cat("na_pid=", paste(is.na(participants$prolific_pid), collapse = ","), "\\n", sep = "")
cat("pids=", paste(hex(participants$prolific_pid), collapse = ","), "\\n", sep = "")
cat("contents=", paste(hex(messages$content), collapse = ","), "\\n", sep = "")
`;
    writeFileSync(path.join(dir, 'check.R'), script);
    const out = Object.fromEntries(
      run('Rscript', ['--vanilla', 'check.R'], dir)
        .trim()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(out).toEqual({
      participants_rows: '2',
      messages_rows: String(MESSAGES.length + 1),
      class_chat_complete: 'logical',
      class_chat_turns: 'integer',
      class_prolific_pid: 'character',
      chat_turns: `${MESSAGES.length},NA`,
      chat_complete: 'TRUE,NA',
      na_pid: 'FALSE,FALSE',
      pids: [hex('NA'), hex('=1+1')].join(','),
      contents: ['Hello', ...MESSAGES].map(hex).join(','),
    });
  });

  it('in pandas: nullable boolean and integer columns, NA strings kept as text, every message exact', () => {
    const script = `${readmeSnippet('python')}
import json
print(json.dumps({
    "participants_rows": len(participants),
    "messages_rows": len(messages),
    "dtype_chat_complete": str(participants["chat_complete"].dtype),
    "dtype_chat_turns": str(participants["chat_turns"].dtype),
    "dtype_content": str(messages["content"].dtype),
    "chat_turns": [None if pd.isna(v) else int(v) for v in participants["chat_turns"]],
    "chat_complete": [None if pd.isna(v) else bool(v) for v in participants["chat_complete"]],
    "pids": list(participants["prolific_pid"]),
    "contents": list(messages["content"]),
}))
`;
    writeFileSync(path.join(dir, 'check.py'), script);
    const out = JSON.parse(run('/usr/bin/python3', ['check.py'], dir)) as Record<string, unknown>;
    expect(out).toEqual({
      participants_rows: 2,
      messages_rows: MESSAGES.length + 1,
      dtype_chat_complete: 'boolean',
      dtype_chat_turns: 'Int64',
      dtype_content: 'string',
      chat_turns: [MESSAGES.length, null],
      chat_complete: [true, null],
      pids: ['NA', '=1+1'],
      contents: ['Hello', ...MESSAGES],
    });
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOW_TEMPLATES, type FlowDefinition } from '@studychat/contracts';
import { createAndLogin, useTestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { flowExperiment, flowParticipant, walk } from '../flow/flow.testing.js';
import { parseCsv } from './parse-csv.testing.js';
import { readmeSnippet, run } from './readers.testing.js';

// The data package of a study written as a flow (issue 30), for each template: one typed column per question key
// (a multiple choice as TRUE/FALSE per option), AI texts as generated and confirmed, a row per step done, the
// study definition inside, a codebook of every column of every file, and the whole read back in R and pandas
// with docs/running-a-study.md's code, exactly.

const BELIEF = 'NA =1+1 "quoted", then\nanother line 😀';

describe.each(TEST_DIALECTS)('the data package of a flow on %s', (dialect) => {
  const t = useTestApp(dialect);
  const packages = new Map<string, Record<string, Uint8Array>>();
  /** The participant who completed, per template. */
  const completer = new Map<string, string>();
  let admin: TestUser;

  async function packageOf(flow: FlowDefinition): Promise<Record<string, Uint8Array>> {
    const experimentId = await flowExperiment(t(), admin, flow);
    const done = await flowParticipant(t(), experimentId);
    completer.set(flow.id, done.id);
    await walk(t(), done, experimentId, { answers: { belief: BELIEF, decision: BELIEF } });
    // A second participant who stopped at the first questions page.
    const partial = await flowParticipant(t(), experimentId);
    await walk(t(), partial, experimentId, { until: flow.steps.find((s) => s.type === 'questions')?.id });
    const res = await t().app.inject({
      method: 'GET',
      url: `/api/experiments/${experimentId}/export-package`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    return unzipSync(new Uint8Array(res.rawPayload));
  }

  beforeAll(async () => {
    admin = await createAndLogin(t(), { isAdmin: true });
    for (const flow of FLOW_TEMPLATES) packages.set(flow.id, await packageOf(flow));
  });

  it.each(FLOW_TEMPLATES.map((f) => [f.id, f] as const))(
    '%s: the files, a column per answer, the definition inside, a codebook of every column',
    (id, flow) => {
      const files = packages.get(id) ?? {};
      expect(Object.keys(files).sort()).toEqual([
        'codebook.csv',
        'datapackage.json',
        'events.csv',
        'messages.csv',
        'participants.csv',
        'steps.csv',
        'study.json',
      ]);
      expect(JSON.parse(strFromU8(files['study.json'] ?? new Uint8Array()))).toEqual(flow);
      const participants = parseCsv(strFromU8(files['participants.csv'] ?? new Uint8Array()));
      const [header, ...rows] = participants;
      expect(rows).toHaveLength(2);
      for (const step of flow.steps) {
        if (step.type !== 'questions') continue;
        for (const q of step.questions) {
          if (q.type === 'multiple') for (const o of q.options) expect(header).toContain(`${q.key}_${o.value}`);
          else expect(header).toContain(q.key);
        }
      }
      const column = (name: string) => (header ?? []).indexOf(name);
      const done = rows.find((r) => r[column('user_id')] === completer.get(id)) ?? [];
      const partial = rows.find((r) => r !== done) ?? [];
      expect(done[column('last_step')]).toBe('completed');
      expect(done[column('pathway')]).toBe('complete');
      expect(partial[column('last_step')]).not.toBe('completed');
      expect(partial[column('pathway')]).toBe('');
      // Every column of every file is in the codebook, the codebook's own too.
      const codebook = parseCsv(strFromU8(files['codebook.csv'] ?? new Uint8Array())).slice(1);
      const described = new Set(codebook.map(([file, name]) => `${file}/${name}`));
      for (const file of ['participants.csv', 'steps.csv', 'messages.csv', 'events.csv', 'codebook.csv']) {
        const [fileHeader] = parseCsv(strFromU8(files[file] ?? new Uint8Array()));
        for (const name of fileHeader ?? []) expect(described).toContain(`${file}/${name}`);
      }
      const steps = parseCsv(strFromU8(files['steps.csv'] ?? new Uint8Array())).slice(1);
      expect(steps.filter((s) => s[0] === done[0]).map((s) => s[2])).toEqual(
        flow.steps
          .filter(
            (s) =>
              s.type === 'page' &&
              !s.consent &&
              (!s.conditions || s.conditions.includes(done[column('condition')] ?? '')),
          )
          .concat(flow.steps.filter((s) => s.type === 'questions' || s.type === 'ai_text'))
          .map((s) => s.id)
          .filter((s, i, all) => all.indexOf(s) === i)
          .sort((a, b) => flow.steps.findIndex((s) => s.id === a) - flow.steps.findIndex((s) => s.id === b)),
      );
    },
  );

  describe('read back with docs/running-a-study.md', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'studychat-flow-readers-'));
      mkdirSync(path.join(dir, 'data'));
      for (const [name, bytes] of Object.entries(packages.get('belief-change') ?? {})) {
        writeFileSync(path.join(dir, 'data', name), bytes);
      }
    });
    afterAll(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('in R: the slider as a number, the correction flag logical, the belief byte for byte', () => {
      const script = `${readmeSnippet('r')}
hex <- function(x) vapply(x, function(s) if (is.na(s)) "NA" else paste(as.character(charToRaw(enc2utf8(s))), collapse = ""), "")
cat("rows=", nrow(participants), "\\n", sep = "")
cat("class_confidence=", class(participants$confidence_before), "\\n", sep = "")
cat("class_corrected=", class(participants$belief_summary_corrected), "\\n", sep = "")
done <- participants$user_id == "${completer.get('belief-change')}"
cat("belief=", paste(hex(participants$belief[done]), hex(participants$belief[!done]), sep = ","), "\\n", sep = "")
cat("confidence=", paste(participants$confidence_before[done], participants$confidence_before[!done], sep = ","), "\\n", sep = "")
`;
      writeFileSync(path.join(dir, 'check.R'), script);
      const out = Object.fromEntries(
        run('Rscript', ['--vanilla', 'check.R'], dir)
          .trim()
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );
      const hex = Buffer.from(BELIEF, 'utf8').toString('hex');
      expect(out).toEqual({
        rows: '2',
        class_confidence: 'numeric',
        class_corrected: 'logical',
        belief: `${hex},NA`,
        confidence: '50,NA',
      });
    });

    it('in pandas: the same types and the same text', () => {
      const script = `${readmeSnippet('python')}
import json
print(json.dumps({
    "rows": len(participants),
    "dtype_confidence": str(participants["confidence_before"].dtype),
    "dtype_corrected": str(participants["belief_summary_corrected"].dtype),
    "belief": [None if pd.isna(v) else v for v in participants.sort_values("user_id", key=lambda c: c != "${completer.get('belief-change')}")["belief"]],
    "confidence": [None if pd.isna(v) else float(v) for v in participants.sort_values("user_id", key=lambda c: c != "${completer.get('belief-change')}")["confidence_before"]],
}))
`;
      writeFileSync(path.join(dir, 'check.py'), script);
      const out = JSON.parse(run('/usr/bin/python3', ['check.py'], dir)) as Record<string, unknown>;
      expect(out).toEqual({
        rows: 2,
        dtype_confidence: 'Float64',
        dtype_corrected: 'boolean',
        belief: [BELIEF, null],
        confidence: [50, null],
      });
    });
  });
});

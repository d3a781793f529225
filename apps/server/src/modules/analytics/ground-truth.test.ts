import { readFileSync } from 'node:fs';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAndLogin, expectJson, useTestApp, type TestApp, type TestUser } from '../../../test/app.js';
import { SwitchableModel } from '../../../test/chat.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { REPO_ROOT } from '../../paths.js';
import { twoSectionStudy } from '../journey/journey.testing.js';
import {
  chatRounds,
  createExperiment,
  participantAt,
  send,
  surveyBody,
  type Step,
} from '../participants/journey.fixtures.js';
import { readTyped, type SchemaField, type TypedValue } from './typed-reader.testing.js';

// The "done when": a study with a known ground truth (every pathway, a drop-out after every step,
// hostile text), exported as the data package WHILE participants are still writing, read back with the
// docs/running-a-study.md's rules (typed-reader.testing.ts stands in for R and pandas), with zero mismatches and the same
// counts in every file.

/** Text that breaks naive CSV writers and readers, or that spreadsheets and NA rules change. */
const HOSTILE = [
  'He said "no", then left, again',
  'line one\nline two',
  'carriage\r\nreturn and a lone\rCR',
  'emoji 😀👩‍👧 and ünïcödé',
  'مرحبا بالعالم، هل اللقاح آمن؟',
  'NA',
  'NULL',
  'N/A',
  '=1+1',
  "'=x",
  '-6 to 6',
  '@SUM(A1:A2)',
  '\tstarts with a tab',
  'TRUE',
];
/** The API stores a CR or CRLF line break as LF (contracts/text.ts): that is the text that was sent. */
const stored = (text: string) => text.replace(/\r\n?/g, '\n');
/** Every assistant reply: hostile too, and with a carriage return kept (the model's text is stored as is). */
const REPLY = 'Answer, with "quotes",\r\na CR\r, =1+1, NA and שלום 😀';
const LONG = 'I would like to understand the evidence about side effects, and how often they happen in children.';

interface Truth {
  user: TestUser;
  pid: string;
  /** Where the participant stopped (the last step done). */
  until: Step | 'ceiling' | 'confirm-completed';
  pathway: string | null;
  completionPathway: string | null;
  entry: string | null;
  baseline: number | null;
  post: number | null;
  sent: string[];
  reachedChat: boolean;
}

const PIDS = ['PID "quoted", comma', 'NA', '=1+1', "'=x", 'مرحبا', 'PID-😀', 'N/A', 'NULL'];

async function complete(t: TestApp, truth: Truth, experimentId: string, until: Step): Promise<void> {
  const order: Step[] = ['chatted', 'post', 'completed'];
  await chatRounds(t, truth.user, experimentId, truth.sent);
  truth.reachedChat = true;
  if (order.indexOf(until) >= 1) {
    const body = surveyBody(truth.user.id, experimentId, 'post', { post_intent: truth.post });
    const res = await send(t, truth.user, 'POST', '/api/surveys', body);
    expect(res.statusCode, res.body).toBeLessThan(300);
  }
  if (until === 'completed') {
    expectJson(
      await send(t, truth.user, 'POST', '/api/participants/completion', { experimentId, pathway: 'complete' }),
      200,
    );
  }
}

/** One participant taken through the real routes to `until`, with what they did. */
async function participant(t: TestApp, experimentId: string, n: number, until: Truth['until']): Promise<Truth> {
  const pid = `${PIDS[n % PIDS.length]} #${n}`;
  const baseline = until === 'ceiling' ? 7 : (n % 6) + 1;
  const stepUntil: Step =
    until === 'ceiling'
      ? 'baseline'
      : until === 'confirm-completed'
        ? 'confirm'
        : until === 'chatted' || until === 'post' || until === 'completed'
          ? 'sections'
          : until;
  const user = await participantAt(t, experimentId, stepUntil, { baseline, pid });
  const answered = (step: Step) =>
    ['questions', 'baseline', 'pre', 'assigned', 'sections', 'chatted', 'post', 'completed'].indexOf(step);
  const truth: Truth = {
    user,
    pid,
    until,
    pathway: null,
    completionPathway: null,
    entry: null,
    baseline: null,
    post: null,
    sent: [],
    reachedChat: false,
  };
  if (until === 'confirm' || until === 'confirm-completed') {
    truth.entry = 'confirm';
    truth.pathway = 'confirm';
  } else if (until === 'ceiling') {
    truth.entry = 'questions';
    truth.baseline = 7;
    truth.pathway = 'ceiling';
    expectJson(await send(t, user, 'POST', '/api/participants/completion', { experimentId, pathway: 'ceiling' }), 200);
    truth.completionPathway = 'ceiling';
  } else {
    if (answered(until) >= 0) truth.entry = 'questions';
    if (answered(until) >= 1) {
      truth.baseline = baseline;
      truth.pathway = 'complete';
    }
  }
  if (until === 'confirm-completed') {
    expectJson(await send(t, user, 'POST', '/api/participants/completion', { experimentId, pathway: 'confirm' }), 200);
    truth.completionPathway = 'confirm';
  }
  if (until === 'chatted' || until === 'post' || until === 'completed') {
    const start = (n * 5) % HOSTILE.length;
    truth.sent = [...HOSTILE.slice(start), ...HOSTILE.slice(0, start)].slice(0, 6).concat(LONG);
    if (until !== 'chatted') truth.post = (n % 7) + 1;
    await complete(t, truth, experimentId, until);
    if (until === 'completed') truth.completionPathway = 'complete';
  }
  if (until === 'post' || until === 'completed') {
    // A repeat of the post-survey with another answer: the first stays, the attempt is an event.
    const other = ((truth.post ?? 1) % 7) + 1;
    await send(t, user, 'POST', '/api/surveys', surveyBody(user.id, experimentId, 'post', { post_intent: other }));
  }
  return truth;
}

interface Resource {
  path: string;
  schema: { fields: SchemaField[]; missingValues: string[] };
}

async function readPackage(t: TestApp, admin: TestUser, experimentId: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/experiments/${experimentId}/export-package`,
    headers: admin.headers,
  });
  expect(res.statusCode).toBe(200);
  const files = Object.fromEntries(
    Object.entries(unzipSync(new Uint8Array(res.rawPayload))).map(([name, bytes]) => [name, strFromU8(bytes)]),
  );
  const descriptor = JSON.parse(files['datapackage.json'] ?? '') as { resources: Resource[] };
  const tables: Record<string, Record<string, TypedValue>[]> = {};
  for (const resource of descriptor.resources) {
    expect(resource.schema.missingValues).toEqual(['']);
    tables[resource.path] = readTyped(files[resource.path] ?? '', resource.schema.fields);
  }
  return tables;
}

const by = <T extends Record<string, TypedValue>>(rows: T[], key: string) => {
  const map = new Map<TypedValue, T[]>();
  for (const row of rows) map.set(row[key] ?? null, [...(map.get(row[key] ?? null) ?? []), row]);
  return map;
};

/** Every file agrees with the others: the same participants, and each count matches the rows behind it. */
function expectConsistent(tables: Record<string, Record<string, TypedValue>[]>) {
  const participants = tables['participants.csv'] ?? [];
  const ids = new Set(participants.map((p) => p.user_id));
  expect(ids.size).toBe(participants.length);
  const messages = by(tables['messages.csv'] ?? [], 'user_id');
  const surveys = by(tables['surveys.csv'] ?? [], 'user_id');
  for (const file of ['messages.csv', 'surveys.csv', 'page_times.csv', 'events.csv']) {
    for (const row of tables[file] ?? [])
      expect(ids.has(row.user_id ?? null), `${file} user in participants.csv`).toBe(true);
  }
  for (const p of participants) {
    const mine = messages.get(p.user_id ?? null) ?? [];
    const turns = mine.filter((m) => m.role === 'user').length;
    expect(p.chat_turns ?? 0, 'chat_turns = user rows in messages.csv').toBe(turns);
    expect(p.assistant_messages ?? 0).toBe(mine.length - turns);
    const answers = surveys.get(p.user_id ?? null) ?? [];
    const answer = (type: string, question: string) =>
      answers.find((a) => a.survey_type === type && a.question === question)?.value ?? null;
    expect(p.entry_choice).toBe(answer('entry', 'choice'));
    expect(p.baseline_intention === null ? null : String(p.baseline_intention)).toBe(
      answer('baseline', 'vaccination_intention'),
    );
    expect(p.post_intent === null ? null : String(p.post_intent)).toBe(answer('post', 'post_intent'));
  }
}

describe.each(TEST_DIALECTS)('ground truth through the data package on %s', (dialect) => {
  const model = new SwitchableModel();
  model.behaviour = (_request, onText) => {
    onText(REPLY);
    return Promise.resolve({
      model: 'truth-model',
      inputTokens: 10,
      outputTokens: 5,
      stopReason: 'end_turn',
      thinking: [],
    });
  };
  const t = useTestApp(dialect, { deps: { studies: () => Promise.resolve(twoSectionStudy), llm: model } });
  let admin: TestUser;
  let experimentId: string;
  const truths: Truth[] = [];
  let during: Record<string, Record<string, TypedValue>[]> = {};

  beforeAll(async () => {
    admin = await createAndLogin(t(), { isAdmin: true });
    experimentId = (await createExperiment(t(), admin)).id;
    const stops: Truth['until'][] = [
      'joined',
      'consented',
      'confirm',
      'confirm-completed',
      'questions',
      'baseline',
      'ceiling',
      'pre',
      'assigned',
      'sections',
      'chatted',
      'post',
      'completed',
      'completed',
    ];
    for (const [n, until] of stops.entries()) truths.push(await participant(t(), experimentId, n, until));
    // The package is exported while more participants write: it must be one consistent snapshot.
    const [tables, ...late] = await Promise.all([
      readPackage(t(), admin, experimentId),
      participant(t(), experimentId, 14, 'completed'),
      participant(t(), experimentId, 15, 'chatted'),
      participant(t(), experimentId, 16, 'ceiling'),
    ]);
    during = tables;
    truths.push(...late);
  });

  it('exports one consistent snapshot while participants are writing', () => {
    expectConsistent(during);
    expect((during['participants.csv'] ?? []).length).toBeGreaterThanOrEqual(14);
  });

  it('reads back every participant, answer and message exactly, with zero mismatches', async () => {
    const tables = await readPackage(t(), admin, experimentId);
    expectConsistent(tables);
    const participants = by(tables['participants.csv'] ?? [], 'user_id');
    const messages = by(tables['messages.csv'] ?? [], 'user_id');
    expect(participants.size).toBe(truths.length);
    const mismatches: string[] = [];
    const check = (what: string, actual: unknown, expected: unknown) => {
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        mismatches.push(`${what}: ${JSON.stringify(actual)} != ${JSON.stringify(expected)}`);
      }
    };
    for (const truth of truths) {
      const row = participants.get(truth.user.id)?.[0];
      const who = `${truth.until} ${truth.pid}`;
      if (!row) {
        mismatches.push(`${who}: missing`);
        continue;
      }
      check(`${who} prolific_pid`, row.prolific_pid, truth.pid);
      check(`${who} entry_choice`, row.entry_choice, truth.entry);
      check(`${who} baseline`, row.baseline_intention, truth.baseline);
      check(`${who} post`, row.post_intent, truth.post);
      check(`${who} pathway`, row.pathway, truth.pathway);
      check(`${who} completion_pathway`, row.completion_pathway, truth.completionPathway);
      check(`${who} chat_turns`, row.chat_turns, truth.reachedChat ? truth.sent.length : null);
      check(`${who} chat_complete`, row.chat_complete, truth.reachedChat ? true : null);
      check(
        `${who} assistant tokens`,
        row.assistant_input_tokens,
        truth.reachedChat ? 10 * (truth.sent.length + 1) : null,
      );
      check(
        `${who} intervention_completed_at set`,
        row.intervention_completed_at !== null,
        truth.completionPathway === 'complete',
      );
      check(
        `${who} delta`,
        row.delta,
        truth.post !== null && truth.baseline !== null ? truth.post - truth.baseline : null,
      );
      const mine = messages.get(truth.user.id) ?? [];
      check(
        `${who} user messages`,
        mine.filter((m) => m.role === 'user').map((m) => m.content),
        truth.sent.map(stored),
      );
      check(
        `${who} replies`,
        mine.filter((m) => m.role === 'assistant' && m.is_initial === false).map((m) => m.content),
        truth.sent.map(() => REPLY),
      );
    }
    expect(mismatches).toEqual([]);
    const changes = (tables['events.csv'] ?? []).filter((e) => e.type === 'answer_change_refused');
    expect(changes).toHaveLength(truths.filter((x) => x.until === 'post' || x.until === 'completed').length);
  });

  it('the snippets of docs/running-a-study.md read with the rules the typed reader applies', () => {
    const readme = readFileSync(path.join(REPO_ROOT, 'docs', 'running-a-study.md'), 'utf8');
    expect(readme).toContain('na.strings = ""');
    expect(readme).toContain('keep_default_na=False, na_values=[""]');
    expect(readme).toContain('true_values=["TRUE"], false_values=["FALSE"]');
    expect(readme).toContain('colClasses');
  });
});

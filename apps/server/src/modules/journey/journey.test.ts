import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createAndLogin, expectJson, useTestApp, type TestApp, type TestUser } from '../../../test/app.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import {
  chatRounds,
  COMPLETE_CHAT,
  createExperiment,
  participantAt,
  send,
  surveyBody,
} from '../participants/journey.fixtures.js';
import { dataOf, errorOf, eventsOf, participantRecords, twoSectionStudy } from './journey.testing.js';

// Table-driven over the step list: at every step, every write that is not that step's (nor a repeat of one
// already made) is refused with 409 STEP_OUT_OF_ORDER naming the step, and changes nothing but one
// `out_of_order` event; repeats return 200 and change nothing at all.

type Write = (t: TestApp, user: TestUser, experimentId: string) => Promise<LightMyRequestResponse>;

const survey =
  (type: string, responses: unknown): Write =>
  (t, user, experimentId) =>
    send(t, user, 'POST', '/api/surveys', surveyBody(user.id, experimentId, type, responses));
const participants =
  (path: string, extra: Record<string, unknown> = {}): Write =>
  (t, user, experimentId) =>
    send(t, user, 'POST', `/api/participants/${path}`, { experimentId, ...extra });

/** Every journey write a participant can send (two sections in the test study, and one past the end). */
const WRITES: Record<string, Write> = {
  consent: participants('consent'),
  'entry:questions': survey('entry', { choice: 'questions' }),
  'entry:confirm': survey('entry', { choice: 'confirm' }),
  'baseline:4': survey('baseline', { vaccination_intention: '4' }),
  'baseline:7': survey('baseline', { vaccination_intention: '7' }),
  pre: survey('pre', { age: '45-54', sex: 'male', political_leaning: 'conservative' }),
  assign: participants('assign-condition'),
  'open:0': participants('sections/open', { sectionIndex: 0 }),
  'open:1': participants('sections/open', { sectionIndex: 1 }),
  'open:2': participants('sections/open', { sectionIndex: 2 }),
  'finish:0': participants('sections/finish', { sectionIndex: 0, visibleSeconds: 99, hiddenSeconds: 0 }),
  'finish:1': participants('sections/finish', { sectionIndex: 1, visibleSeconds: 99, hiddenSeconds: 0 }),
  initiate: (t, user, experimentId) => send(t, user, 'POST', '/api/chat/initiate', { experimentId }),
  post: survey('post', { post_intent: 3 }),
  'completion:complete': participants('completion', { pathway: 'complete' }),
  'completion:confirm': participants('completion', { pathway: 'confirm' }),
  'completion:ceiling': participants('completion', { pathway: 'ceiling' }),
};

/** Sends the named write. */
function write(name: string, t: TestApp, user: TestUser, experimentId: string): Promise<LightMyRequestResponse> {
  const w = WRITES[name];
  if (!w) throw new Error(`no write ${name}`);
  return w(t, user, experimentId);
}

const ENTRY = ['entry:questions', 'entry:confirm'];
const BASELINE = ['baseline:4', 'baseline:7'];
const COMPLETIONS = ['completion:complete', 'completion:confirm', 'completion:ceiling'];
const SECTIONS = ['open:0', 'finish:0', 'open:1', 'finish:1'];

interface Position {
  name: string;
  step: string;
  /** Brings a new participant to this position. */
  reach: (t: TestApp, experimentId: string) => Promise<TestUser>;
  /** Writes the records already hold: answered 200, nothing changes. */
  repeats: string[];
  /** The writes of this step (accepted, so not sent here: the walks test them). */
  next: string[];
}

async function at(t: TestApp, experimentId: string, until: Parameters<typeof participantAt>[2], baseline = 4) {
  return participantAt(t, experimentId, until, { baseline });
}

async function inSecondSection(t: TestApp, experimentId: string): Promise<TestUser> {
  const user = await at(t, experimentId, 'assigned');
  expectJson(await write('open:0', t, user, experimentId), 200);
  t.clock.advance(15_000);
  expectJson(await write('finish:0', t, user, experimentId), 200);
  expectJson(await write('open:1', t, user, experimentId), 200);
  return user;
}

const POSITIONS: Position[] = [
  { name: 'joined', step: 'consent', reach: (t, e) => at(t, e, 'joined'), repeats: [], next: ['consent'] },
  { name: 'consented', step: 'entry', reach: (t, e) => at(t, e, 'consented'), repeats: ['consent'], next: ENTRY },
  {
    name: 'no concerns',
    step: 'confirm_exit',
    reach: (t, e) => at(t, e, 'confirm'),
    repeats: ['consent', ...ENTRY],
    next: ['completion:confirm'],
  },
  {
    name: 'questions',
    step: 'baseline',
    reach: (t, e) => at(t, e, 'questions'),
    repeats: ['consent', ...ENTRY],
    next: BASELINE,
  },
  {
    name: 'baseline 7',
    step: 'ceiling_exit',
    reach: (t, e) => at(t, e, 'baseline', 7),
    repeats: ['consent', ...ENTRY, ...BASELINE],
    next: ['completion:ceiling'],
  },
  {
    name: 'baseline 4',
    step: 'pre_survey',
    reach: (t, e) => at(t, e, 'baseline'),
    repeats: ['consent', ...ENTRY, ...BASELINE],
    next: ['pre'],
  },
  {
    name: 'pre-survey',
    step: 'assignment',
    reach: (t, e) => at(t, e, 'pre'),
    repeats: ['consent', ...ENTRY, ...BASELINE, 'pre'],
    next: ['assign'],
  },
  {
    name: 'first section',
    step: 'sections',
    reach: (t, e) => at(t, e, 'assigned'),
    repeats: ['consent', ...ENTRY, ...BASELINE, 'pre', 'assign'],
    next: ['open:0'],
  },
  {
    name: 'second section open',
    step: 'sections',
    reach: inSecondSection,
    repeats: ['consent', ...ENTRY, ...BASELINE, 'pre', 'assign', 'open:0', 'finish:0', 'open:1'],
    next: ['finish:1'],
  },
  {
    name: 'sections read',
    step: 'chat',
    reach: (t, e) => at(t, e, 'sections'),
    repeats: ['consent', ...ENTRY, ...BASELINE, 'pre', 'assign', ...SECTIONS],
    next: ['initiate'],
  },
  {
    name: 'chat started, not complete',
    step: 'chat',
    reach: async (t, e) => {
      const user = await at(t, e, 'sections');
      await chatRounds(t, user, e, COMPLETE_CHAT.slice(0, 2));
      return user;
    },
    repeats: ['consent', ...ENTRY, ...BASELINE, 'pre', 'assign', ...SECTIONS, 'initiate'],
    next: [],
  },
  {
    name: 'chat complete',
    step: 'post_survey',
    reach: (t, e) => at(t, e, 'chatted'),
    repeats: ['consent', ...ENTRY, ...BASELINE, 'pre', 'assign', ...SECTIONS, 'initiate'],
    next: ['post'],
  },
  {
    name: 'post-survey',
    step: 'completion',
    reach: (t, e) => at(t, e, 'post'),
    repeats: ['consent', ...ENTRY, ...BASELINE, 'pre', 'assign', ...SECTIONS, 'initiate', 'post'],
    next: ['completion:complete'],
  },
  {
    name: 'completed (complete)',
    step: 'completed',
    reach: (t, e) => at(t, e, 'completed'),
    repeats: ['consent', ...ENTRY, ...BASELINE, 'pre', 'assign', ...SECTIONS, 'initiate', 'post', ...COMPLETIONS],
    next: [],
  },
  {
    name: 'completed (confirm)',
    step: 'completed',
    reach: async (t, e) => {
      const user = await at(t, e, 'confirm');
      expectJson(await write('completion:confirm', t, user, e), 200);
      return user;
    },
    repeats: ['consent', ...ENTRY, ...COMPLETIONS],
    next: [],
  },
  {
    name: 'completed (ceiling)',
    step: 'completed',
    reach: async (t, e) => {
      const user = await at(t, e, 'baseline', 7);
      expectJson(await write('completion:ceiling', t, user, e), 200);
      return user;
    },
    repeats: ['consent', ...ENTRY, ...BASELINE, ...COMPLETIONS],
    next: [],
  },
];

describe.each(TEST_DIALECTS)('journey order on %s', (dialect) => {
  const t = useTestApp(dialect, { deps: { studies: () => Promise.resolve(twoSectionStudy) } });

  async function experiment(): Promise<string> {
    const admin = await createAndLogin(t(), { isAdmin: true });
    return (await createExperiment(t(), admin)).id;
  }

  it('covers every write and every step of the journey', () => {
    const steps = new Set(POSITIONS.map((p) => p.step));
    expect([...steps].sort()).toEqual(
      [
        'consent',
        'entry',
        'confirm_exit',
        'baseline',
        'ceiling_exit',
        'pre_survey',
        'assignment',
        'sections',
        'chat',
        'post_survey',
        'completion',
        'completed',
      ].sort(),
    );
    for (const p of POSITIONS) for (const w of [...p.repeats, ...p.next]) expect(Object.keys(WRITES)).toContain(w);
  });

  for (const position of POSITIONS) {
    it(`at "${position.name}" (${position.step}): every other write is 409 and changes nothing; repeats change nothing`, async () => {
      const experimentId = await experiment();
      const user = await position.reach(t(), experimentId);
      const journey = expectJson<{ step: string }>(
        await send(t(), user, 'GET', `/api/participants/journey/${experimentId}`),
        200,
      );
      expect(journey.step).toBe(position.step);

      for (const name of Object.keys(WRITES)) {
        if (position.next.includes(name)) continue;
        const records = await participantRecords(t(), user.id, experimentId);
        const events = await eventsOf(t(), user, experimentId);
        const res = await write(name, t(), user, experimentId);

        if (position.repeats.includes(name)) {
          expect(res.statusCode, `${name} repeated at ${position.name}: ${res.body}`).toBeLessThan(300);
          // A repeat with other answers leaves one answer_change_refused event (the first answers stay);
          // nothing else is logged.
          const after = await eventsOf(t(), user, experimentId);
          expect(after.slice(0, events.length), name).toEqual(events);
          expect(
            after.slice(events.length).map((e) => e.type),
            name,
          ).toEqual(after.length > events.length ? ['answer_change_refused'] : []);
        } else {
          expect(res.statusCode, `${name} at ${position.name}: ${res.body}`).toBe(409);
          const body = errorOf(res);
          expect(body).toMatchObject({ code: 'STEP_OUT_OF_ORDER', step: position.step });
          expect(body.error).toMatch(/^That is not the next step of the study: you /);
          const after = await eventsOf(t(), user, experimentId);
          expect(after.slice(0, events.length)).toEqual(events);
          expect(after.slice(events.length)).toMatchObject([{ type: 'out_of_order', step: position.step }]);
          expect((dataOf(after.at(-1)) as { attempted: string }).attempted).toBeTruthy();
        }
        expect(await participantRecords(t(), user.id, experimentId), `${name} at ${position.name}`).toEqual(records);
      }
    });
  }

  it('logs one event per step reached on the complete pathway, in order, with the server time', async () => {
    const experimentId = await experiment();
    const user = await participantAt(t(), experimentId, 'completed', { baseline: 2 });
    const events = await eventsOf(t(), user, experimentId);
    expect(events.map((e) => e.type)).toEqual([
      'joined',
      'consented',
      'entry',
      'baseline',
      'pre_survey',
      'assigned',
      'section_opened',
      'section_finished',
      'section_opened',
      'section_finished',
      'chat_started',
      'chat_complete',
      'post_survey',
      'completed',
    ]);
    expect(events.map((e) => e.step)).toEqual([
      'consent',
      'consent',
      'entry',
      'baseline',
      'pre_survey',
      'assignment',
      'sections',
      'sections',
      'sections',
      'sections',
      'chat',
      'chat',
      'post_survey',
      'completion',
    ]);
    const seqs = events.map((e) => Number(e.seq));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(events.every((e) => e.user_id === user.id && e.experiment_id === experimentId)).toBe(true);
    expect(new Set(events.map((e) => e.assignment_id)).size).toBe(1);
    expect(dataOf(events[2])).toEqual({ choice: 'questions' });
    expect(dataOf(events[3])).toEqual({ intention: 2 });
    expect(dataOf(events[5])).toMatchObject({ stratum: '1-2' });
    expect(dataOf(events[7])).toMatchObject({
      sectionIndex: 0,
      serverSeconds: 15,
      visibleSeconds: 15,
      hiddenSeconds: 0,
    });
    expect(dataOf(events[11])).toMatchObject({ rounds: 3 });
    expect(dataOf(events[13])).toEqual({ pathway: 'complete' });
    // The finish of section 1 is 40 s after its opening on the server's clock.
    const times = events.map((e) => new Date(e.created_at).getTime());
    expect((times[9] ?? 0) - (times[8] ?? 0)).toBe(40_000);
  });

  it('logs the exits with their pathway, and nothing for a participant who never joined', async () => {
    const experimentId = await experiment();
    const confirm = await participantAt(t(), experimentId, 'confirm');
    expectJson(await write('completion:confirm', t(), confirm, experimentId), 200);
    expect((await eventsOf(t(), confirm, experimentId)).map((e) => e.type)).toEqual([
      'joined',
      'consented',
      'entry',
      'completed',
    ]);
    const stranger = await createAndLogin(t());
    for (const name of Object.keys(WRITES))
      expect((await write(name, t(), stranger, experimentId)).statusCode).toBe(404);
    expect(await eventsOf(t(), stranger, experimentId)).toEqual([]);
  });
});

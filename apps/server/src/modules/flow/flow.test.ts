import { describe, expect, it } from 'vitest';
import {
  beliefChangeTemplate,
  FLOW_TEMPLATES,
  threeArmTemplate,
  type FlowDefinition,
  type FlowProgressReply,
  type FlowView,
} from '@studychat/contracts';
import { createAndLogin, expectJson, useTestApp } from '../../../test/app.js';
import { SwitchableModel } from '../../../test/chat.js';
import { TEST_DIALECTS } from '../../../test/databases.js';
import { insertMemberRow } from '../../../test/factories.js';
import { createExperiment, send } from '../participants/journey.fixtures.js';
import { act, flowExperiment, flowParticipant, flowUrl, viewOf, walk } from './flow.testing.js';

// A study written as a flow (issue 30), through the real routes on each database: every template walked to its
// code; the gate's guarantees (one step at a time, repeats, nothing written on a refusal); each question type's
// validation; screening, attention checks, piping, arms without a chat, weights and strata.

/** A small flow that exercises the rules: a timed page, every question type, a check that ends, strata. */
const rulesFlow: FlowDefinition = {
  format: 'flow',
  id: 'rules',
  title: 'Rules flow',
  texts: { welcome: 'A test study', disclaimer: 'For testing only.' },
  conditions: [
    { id: 'heavy', label: 'Three in four' },
    { id: 'light', label: 'One in four' },
  ],
  pathways: [
    { key: 'complete', label: 'whole study' },
    { key: 'too_young', label: 'under 18' },
    { key: 'inattentive', label: 'failed the check' },
  ],
  steps: [
    {
      id: 'welcome',
      type: 'page',
      title: 'Welcome, please read',
      blocks: [{ paragraphs: ['Hello.'] }],
      button: 'Next',
      minSeconds: 20,
    },
    {
      id: 'about',
      type: 'questions',
      title: 'About you',
      button: 'Continue',
      questions: [
        { key: 'age', text: 'Your age?', required: true, type: 'number', min: 0, max: 120, integer: true },
        {
          key: 'colour',
          text: 'A colour?',
          required: true,
          type: 'single',
          options: [
            { value: 'red', label: 'Red' },
            { value: 'blue', label: 'Blue' },
          ],
        },
        {
          key: 'fruits',
          text: 'Fruits you like?',
          required: false,
          type: 'multiple',
          options: [
            { value: 'apple', label: 'Apple' },
            { value: 'pear', label: 'Pear' },
          ],
          maxChoices: 1,
        },
        {
          key: 'mood',
          text: 'Your mood?',
          required: true,
          type: 'likert',
          points: 5,
          labels: { min: 'Low', max: 'High' },
        },
        {
          key: 'score',
          text: 'A score?',
          required: true,
          type: 'slider',
          min: 0,
          max: 100,
          step: 10,
          anchors: { min: '0', max: '100' },
        },
        { key: 'why', text: 'Why?', required: true, type: 'text', minChars: 5, maxChars: 40, multiline: false },
        {
          key: 'check',
          text: 'Choose Blue.',
          required: true,
          type: 'single',
          options: [
            { value: 'red', label: 'Red' },
            { value: 'blue', label: 'Blue' },
          ],
          check: { expected: 'blue', onFail: { end: 'inattentive' } },
        },
      ],
    },
    { id: 'age_screen', type: 'screen', when: { key: 'age', op: 'lt', value: 18 }, pathway: 'too_young' },
    {
      id: 'assign',
      type: 'randomise',
      weights: { heavy: 3, light: 1 },
      strata: {
        key: 'mood',
        bins: [
          { label: 'low mood', min: 1, max: 2 },
          { label: 'high mood', min: 3, max: 5 },
        ],
      },
    },
    {
      id: 'for_light',
      type: 'page',
      conditions: ['light'],
      title: 'You said {{why}}',
      blocks: [{ paragraphs: ['Your colour: {{colour}}.'] }],
      button: 'Next',
    },
    { id: 'done', type: 'end', pathway: 'complete', title: 'Thanks', blocks: [{ paragraphs: ['Done.'] }] },
    { id: 'young', type: 'end', pathway: 'too_young', title: 'Sorry', blocks: [{ paragraphs: ['Adults only.'] }] },
    { id: 'bye', type: 'end', pathway: 'inattentive', title: 'Sorry', blocks: [{ paragraphs: ['Ended.'] }] },
  ],
};

const ABOUT = { age: 30, colour: 'red', mood: 4, score: 50, why: 'Because.', check: 'blue' };

describe.each(TEST_DIALECTS)('studies written as flows on %s', (dialect) => {
  const model = new SwitchableModel();
  const t = useTestApp(dialect, { deps: { llm: model } });

  async function experimentOf(flow: FlowDefinition): Promise<string> {
    return flowExperiment(t(), await createAndLogin(t(), { isAdmin: true }), flow);
  }

  const stepRecords = async (experimentId: string, userId: string) =>
    t()
      .database.db.selectFrom('step_records')
      .innerJoin('assignments', 'assignments.id', 'step_records.assignment_id')
      .where('assignments.experiment_id', '=', experimentId)
      .where('assignments.user_id', '=', userId)
      .select(['step_records.step_id', 'step_records.data'])
      .execute();
  const eventTypes = async (experimentId: string, userId: string) =>
    (
      await t()
        .database.db.selectFrom('journey_events')
        .where('experiment_id', '=', experimentId)
        .where('user_id', '=', userId)
        .select(['type', 'step'])
        .orderBy('seq')
        .execute()
    ).map((e) => `${e.type}@${e.step}`);

  it.each(FLOW_TEMPLATES.map((f) => [f.id, f] as const))(
    'walks the %s template to its code, every step logged',
    async (_id, flow) => {
      const experimentId = await experimentOf(flow);
      const user = await flowParticipant(t(), experimentId);
      const end = await walk(t(), user, experimentId);
      expect(end.completed).toBe(true);
      expect(end.step).toMatchObject({ type: 'end', pathway: 'complete', code: 'CODE-COMPLETE' });
      const events = await eventTypes(experimentId, user.id);
      expect(events[0]).toBe('joined@consent');
      expect(events).toContain('consented@consent');
      expect(events.some((e) => e.startsWith('assigned@'))).toBe(true);
      expect(events.at(-1)).toBe('completed@done');
      // A repeat of the end step answers the same code and writes nothing.
      const again = expectJson<FlowView>(await send(t(), user, 'POST', flowUrl(experimentId, 'done'), {}), 200);
      expect(again.step).toMatchObject({ code: 'CODE-COMPLETE' });
      expect(await eventTypes(experimentId, user.id)).toEqual(events);
    },
  );

  it('refuses a step out of order with the step the participant is at, writing only the refusal', async () => {
    const experimentId = await experimentOf(rulesFlow);
    const user = await flowParticipant(t(), experimentId);
    const res = await send(t(), user, 'POST', flowUrl(experimentId, 'about'), { answers: ABOUT });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'STEP_OUT_OF_ORDER', flowStep: 'welcome' });
    expect(await stepRecords(experimentId, user.id)).toEqual([]);
    expect(await eventTypes(experimentId, user.id)).toEqual(['joined@consent', 'out_of_order@welcome']);
    // An unknown step and the end step are refused the same way.
    for (const step of ['nope', 'done']) {
      expect((await send(t(), user, 'POST', flowUrl(experimentId, step), {})).json()).toMatchObject({
        code: 'STEP_OUT_OF_ORDER',
      });
    }
  });

  it("keeps a page's minimum time on the server's clock", async () => {
    const experimentId = await experimentOf(rulesFlow);
    const user = await flowParticipant(t(), experimentId);
    expect((await viewOf(t(), user, experimentId)).step).toMatchObject({ type: 'page', remainingSeconds: 20 });
    t().clock.advance(15_000);
    const early = await send(t(), user, 'POST', flowUrl(experimentId, 'welcome'), {});
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'STEP_TOO_EARLY', remainingSeconds: 5 });
    t().clock.advance(5_000);
    const next = expectJson<FlowView>(await send(t(), user, 'POST', flowUrl(experimentId, 'welcome'), {}), 200);
    expect(next.step.id).toBe('about');
  });

  it.each([
    ['a number out of bounds', { age: 130 }, 'age'],
    ['a whole number as a fraction', { age: 30.5 }, 'age'],
    ['an option that does not exist', { colour: 'green' }, 'colour'],
    ['more choices than allowed', { fruits: ['apple', 'pear'] }, 'fruits'],
    ['a likert point past the scale', { mood: 6 }, 'mood'],
    ['a slider value off its steps', { score: 55 }, 'score'],
    ['a text too short', { why: 'no' }, 'why'],
    ['a text too long', { why: 'x'.repeat(41) }, 'why'],
    ['a required answer missing', { colour: undefined }, 'colour'],
    ['a key the page does not ask', { extra: 'x' }, 'extra'],
  ])('refuses %s with 400 naming the question, writing nothing', async (_case, change, key) => {
    const experimentId = await experimentOf(rulesFlow);
    const user = await flowParticipant(t(), experimentId);
    await walk(t(), user, experimentId, { until: 'about' });
    const answers = Object.fromEntries(Object.entries({ ...ABOUT, ...change }).filter(([, v]) => v !== undefined));
    const res = await send(t(), user, 'POST', flowUrl(experimentId, 'about'), { answers });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'ANSWERS_INVALID' });
    expect((res.json() as { issues: { path: string }[] }).issues.map((i) => i.path)).toContain(key);
    expect((await stepRecords(experimentId, user.id)).map((r) => r.step_id)).toEqual(['welcome']);
  });

  it('answers a repeat with the first answers kept, and two writes at once make one record', async () => {
    const experimentId = await experimentOf(rulesFlow);
    const user = await flowParticipant(t(), experimentId);
    await walk(t(), user, experimentId, { until: 'about' });
    const post = (answers: object) => send(t(), user, 'POST', flowUrl(experimentId, 'about'), { answers });
    const [a, b] = await Promise.all([post(ABOUT), post({ ...ABOUT, age: 40 })]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const again = await post({ ...ABOUT, age: 50 });
    expect(again.statusCode).toBe(200);
    const about = (await stepRecords(experimentId, user.id)).filter((r) => r.step_id === 'about');
    expect(about).toHaveLength(1);
    expect([30, 40]).toContain((JSON.parse(about[0]?.data ?? '{}') as { answers: { age: number } }).answers.age);
  });

  it('screens on an earlier answer and ends with the pathway and its code', async () => {
    const experimentId = await experimentOf(rulesFlow);
    const user = await flowParticipant(t(), experimentId);
    const end = await walk(t(), user, experimentId, { answers: { ...ABOUT, age: 16 } });
    expect(end.step).toMatchObject({ id: 'young', pathway: 'too_young', code: 'CODE-TOO_YOUNG' });
    expect(end.condition).toBeNull();
  });

  it('ends the study at a failed attention check that ends, and only flags one that flags', async () => {
    const experimentId = await experimentOf(rulesFlow);
    const user = await flowParticipant(t(), experimentId);
    const end = await walk(t(), user, experimentId, { answers: { ...ABOUT, check: 'red' } });
    expect(end.step).toMatchObject({ id: 'bye', pathway: 'inattentive' });
    // The three-arm template's attention check only flags: the participant goes on to the code.
    const threeArm = await experimentOf(threeArmTemplate);
    const flagged = await flowParticipant(t(), threeArm);
    expect((await walk(t(), flagged, threeArm, { answers: { attention: 'never' } })).step).toMatchObject({
      pathway: 'complete',
    });
  });

  it("pipes earlier answers into texts and into the chat's prompt", async () => {
    const experimentId = await experimentOf(beliefChangeTemplate);
    const user = await flowParticipant(t(), experimentId);
    model.reset();
    const rating = await walk(t(), user, experimentId, {
      until: 'rating_before',
      answers: { belief: 'Daylight saving time should be abolished because it disrupts sleep.' },
      correction: 'I believe daylight saving time should end.',
    });
    expect(rating.step).toMatchObject({ type: 'questions' });
    const text = rating.step.type === 'questions' ? rating.step.questions[0]?.text : '';
    expect(text).toBe('How confident are you that this is true: "I believe daylight saving time should end."?');
    // The AI text's prompt carried the belief as written.
    expect(model.calls[0]?.history[0]?.content).toContain('Daylight saving time should be abolished');
    const chat = await walk(t(), user, experimentId, { until: 'conversation', answers: { confidence_before: 70 } });
    await act(t(), user, experimentId, chat);
    if (chat.condition === 'treatment') {
      expect(model.calls.at(-1)?.system).toContain('"I believe daylight saving time should end."');
      expect(model.calls.at(-1)?.system).toContain('70 out of 100');
    } else {
      expect(model.calls.at(-1)?.system).toContain('local health services');
    }
    expect(model.calls.at(-1)?.system).not.toContain('{{');
  });

  it('takes an arm without a chat past the chat step, and refuses the chat to it', async () => {
    const experimentId = await experimentOf(threeArmTemplate);
    const byArm = new Map<string, string[]>();
    for (let i = 0; i < 6; i++) {
      const user = await flowParticipant(t(), experimentId);
      const seen: string[] = [];
      let view = await viewOf(t(), user, experimentId);
      while (!view.completed) {
        seen.push(view.step.id);
        view = expectJson<FlowView>(await act(t(), user, experimentId, view), 200);
      }
      byArm.set(String(view.condition), seen);
      if (view.condition !== 'chatbot') {
        const start = await send(t(), user, 'POST', '/api/chat/initiate', { experimentId });
        expect(start.statusCode).toBe(409);
      }
    }
    expect(byArm.get('chatbot')).toContain('conversation');
    expect(byArm.get('text')).toContain('official_text');
    expect(byArm.get('text')).not.toContain('conversation');
    expect(byArm.get('none')).not.toContain('conversation');
    expect(byArm.get('none')).not.toContain('official_text');
  });

  it("counts the flow's participants by step, pathway and condition, agreeing with each one's row", async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const experimentId = await flowExperiment(t(), admin, rulesFlow);
    const done = await flowParticipant(t(), experimentId);
    await walk(t(), done, experimentId, { answers: ABOUT });
    const young = await flowParticipant(t(), experimentId);
    await walk(t(), young, experimentId, { answers: { ...ABOUT, age: 16 } });
    const waiting = await flowParticipant(t(), experimentId);
    await walk(t(), waiting, experimentId, { until: 'about' });
    const progress = expectJson<FlowProgressReply>(
      await send(t(), admin, 'GET', `/api/experiments/${experimentId}/flow-progress`),
      200,
    );
    expect(progress.total).toBe(3);
    expect(progress.byStep.find((s) => s.stepId === 'about')?.count).toBe(1);
    expect(progress.byStep.find((s) => s.stepId === 'completed')?.count).toBe(2);
    expect(progress.byPathway.map((p) => [p.key, p.count])).toEqual([
      ['complete', 1],
      ['too_young', 1],
      ['inattentive', 0],
    ]);
    expect(progress.byCondition.reduce((n, c) => n + c.count, 0)).toBe(1);
    const row = (id: string) => progress.participants.find((p) => p.userId === id);
    expect(row(waiting.id)).toMatchObject({ lastStep: 'about', pathway: null });
    expect(row(young.id)).toMatchObject({ lastStep: 'completed', pathway: 'too_young', condition: null });
  });

  it('randomises by weight within the strata of any answer', async () => {
    const experimentId = await experimentOf(rulesFlow);
    const conditions: Record<string, string[]> = { 'low mood': [], 'high mood': [] };
    for (const [mood, stratum] of [
      [1, 'low mood'],
      [5, 'high mood'],
    ] as const) {
      for (let i = 0; i < 8; i++) {
        const user = await flowParticipant(t(), experimentId);
        const view = await walk(t(), user, experimentId, { answers: { ...ABOUT, mood } });
        conditions[stratum]?.push(String(view.condition));
      }
    }
    for (const list of Object.values(conditions)) {
      expect(list.filter((c) => c === 'heavy')).toHaveLength(6);
      expect(list.filter((c) => c === 'light')).toHaveLength(2);
    }
    const strata = await t()
      .database.db.selectFrom('assignments')
      .where('experiment_id', '=', experimentId)
      .select('stratum')
      .distinct()
      .execute();
    expect(strata.map((s) => s.stratum).sort()).toEqual(['high mood', 'low mood']);
  });

  it('holds quotas on its randomise step: a full stratum cell is passed over, every cell full closes joining', async () => {
    const experimentId = await experimentOf(rulesFlow);
    const admin = await createAndLogin(t(), { isAdmin: true });
    await insertMemberRow(t().database.db, experimentId, admin.id, 'editor');
    const quotasUrl = `/api/experiments/${experimentId}/quotas`;
    const cells = expectJson<{ conditions: string[]; strata: string[] }>(await send(t(), admin, 'GET', quotasUrl), 200);
    expect(cells).toMatchObject({ conditions: ['heavy', 'light'], strata: ['low mood', 'high mood', 'unbinned'] });
    const heavyLow = { condition: 'heavy', stratum: 'low mood', max: 1 };
    expectJson(await send(t(), admin, 'PUT', quotasUrl, { quotas: [heavyLow] }), 200);
    const low: string[] = [];
    for (let i = 0; i < 4; i++) {
      const user = await flowParticipant(t(), experimentId);
      low.push(String((await walk(t(), user, experimentId, { answers: { ...ABOUT, mood: 1 } })).condition));
    }
    // Weights 3:1 would give three heavy in four; the cell holds one.
    expect(low.filter((c) => c === 'heavy')).toHaveLength(1);
    expect(low.filter((c) => c === 'light')).toHaveLength(3);

    // Every cell full: both conditions at their quota everywhere.
    const everywhere = [
      { condition: 'heavy', stratum: null, max: 1 },
      { condition: 'light', stratum: null, max: 3 },
    ];
    const reply = expectJson<{ full: boolean }>(await send(t(), admin, 'PUT', quotasUrl, { quotas: everywhere }), 200);
    expect(reply.full).toBe(true);
    const latecomer = await createAndLogin(t());
    const join = { user_id: latecomer.id, experiment_id: experimentId, prolific_pid: 'PID-LATE' };
    expect(expectJson<{ code: string }>(await send(t(), latecomer, 'POST', '/api/participants', join), 403).code).toBe(
      'EXPERIMENT_CLOSED',
    );
    const bad = await send(t(), admin, 'PUT', quotasUrl, { quotas: [{ condition: 'mmr', stratum: null, max: 1 }] });
    expect(bad.statusCode).toBe(400);
  });

  it("keeps each study's routes to its own: 409 both ways, and codes only for the flow's pathways", async () => {
    const admin = await createAndLogin(t(), { isAdmin: true });
    const builtIn = (await createExperiment(t(), admin)).id;
    const participant = await flowParticipant(t(), builtIn);
    expect((await send(t(), participant, 'GET', flowUrl(builtIn))).json()).toMatchObject({
      code: 'NOT_A_FLOW_STUDY',
    });
    const flow = await flowExperiment(t(), admin, rulesFlow);
    const user = await flowParticipant(t(), flow);
    const consent = await send(t(), user, 'POST', '/api/participants/consent', { experimentId: flow });
    expect(consent.statusCode).toBe(409);
    expect(consent.json()).toMatchObject({ code: 'FLOW_STUDY' });
    const codes = `/api/experiments/${flow}/flow-codes`;
    expect((await send(t(), admin, 'PUT', codes, { codes: { nope: 'X' } })).statusCode).toBe(400);
    expect((await send(t(), user, 'PUT', codes, { codes: { complete: 'MINE' } })).statusCode).toBe(403);
    expect((await send(t(), user, 'GET', codes)).statusCode).toBe(403);
    const read = expectJson<{ pathways: { key: string; code: string | null }[] }>(
      await send(t(), admin, 'GET', codes),
      200,
    );
    expect(read.pathways.map((p) => [p.key, p.code])).toEqual([
      ['complete', 'CODE-COMPLETE'],
      ['too_young', 'CODE-TOO_YOUNG'],
      ['inattentive', 'CODE-INATTENTIVE'],
    ]);
  });

  it("gives a participant only their own walk: another experiment's participant is not in this one", async () => {
    const experimentId = await experimentOf(rulesFlow);
    const other = await flowParticipant(t(), await experimentOf(rulesFlow));
    for (const res of [
      await send(t(), other, 'GET', flowUrl(experimentId)),
      await send(t(), other, 'POST', flowUrl(experimentId, 'welcome'), {}),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('stores hostile text as written and pipes it back as text, never as markup', async () => {
    const experimentId = await experimentOf(rulesFlow);
    const hostile = '<img src=x onerror=1> =HYPERLINK("x")';
    const user = await flowParticipant(t(), experimentId);
    const view = await walk(t(), user, experimentId, { until: 'for_light', answers: { ...ABOUT, why: hostile } });
    // Only the light arm sees the page that pipes the answer; the others walk on to their end.
    if (view.step.id === 'for_light') {
      expect(view.step.title).toBe(`You said ${hostile}`);
    } else {
      expect(view.completed).toBe(true);
    }
    const about = (await stepRecords(experimentId, user.id)).find((r) => r.step_id === 'about');
    expect((JSON.parse(about?.data ?? '{}') as { answers: { why: string } }).answers.why).toBe(hostile);
  });

  it('generates an AI text once, and refuses it anywhere but at its step', async () => {
    const experimentId = await experimentOf(beliefChangeTemplate);
    const user = await flowParticipant(t(), experimentId);
    const early = await send(t(), user, 'POST', flowUrl(experimentId, 'belief_summary', true));
    expect(early.statusCode).toBe(409);
    await walk(t(), user, experimentId, { until: 'belief_summary' });
    model.reset();
    const [a, b] = await Promise.all([
      send(t(), user, 'POST', flowUrl(experimentId, 'belief_summary', true)),
      send(t(), user, 'POST', flowUrl(experimentId, 'belief_summary', true)),
    ]);
    expect(a.json()).toEqual(b.json());
    const records = (await stepRecords(experimentId, user.id)).filter((r) => r.step_id === 'belief_summary');
    expect(records).toHaveLength(1);
    const stored = JSON.parse(records[0]?.data ?? '{}') as { generated: string; model: string; costUsd: number };
    expect(stored.generated).toBe((a.json() as { text: string }).text);
    expect(stored.model).toBeTruthy();
    // Confirming without a text keeps the generated one; the view then moves on.
    const next = expectJson<FlowView>(await send(t(), user, 'POST', flowUrl(experimentId, 'belief_summary'), {}), 200);
    expect(next.step.id).toBe('rating_before');
  });
});

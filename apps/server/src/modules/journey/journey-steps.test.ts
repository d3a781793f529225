import { describe, expect, it } from 'vitest';
import { JOURNEY_STEPS, PATHWAYS, studyDefinition, type JourneyStepName, type Pathway } from '@studychat/contracts';
import {
  builtInFlow,
  computeStep,
  hasReached,
  isWriteAllowed,
  isWriteDone,
  NO_RECORDS,
  pathwayAt,
  sectionFinishedInTime,
  stepIndex,
  whereYouAre,
  writeStep,
  type JourneyRecords,
  type JourneyWrite,
  type SectionRecord,
} from './journey-steps.js';

/** The built-in study as the flow the engine interprets. */
const FLOW = builtInFlow(studyDefinition);
const MIN = 20;
const UNOPENED: SectionRecord = { minSeconds: MIN, openedAt: null, finishedAt: null };
const OPENED: SectionRecord = { minSeconds: MIN, openedAt: 1_000, finishedAt: null };
/** Finished one millisecond before the minimum: does not count. */
const EARLY: SectionRecord = { minSeconds: MIN, openedAt: 1_000, finishedAt: 1_000 + MIN * 1000 - 1 };
/** Finished exactly at the minimum: counts. */
const READ: SectionRecord = { minSeconds: MIN, openedAt: 1_000, finishedAt: 1_000 + MIN * 1000 };
const SECTION_STATES = [UNOPENED, OPENED, EARLY, READ];

/** Every combination of records over a small domain: two sections, baselines 1-7, every pathway. */
function* allRecords(): Generator<JourneyRecords> {
  for (const consented of [false, true])
    for (const entryChoice of [null, 'exit', 'continue'] as const)
      for (const baseline of [null, 1, 2, 3, 4, 5, 6, 7])
        for (const preSurvey of [false, true])
          for (const condition of [null, 'mmr'] as const)
            for (const sections of condition === null
              ? [[]]
              : SECTION_STATES.flatMap((a) => SECTION_STATES.map((b) => [a, b])))
              for (const [chatStarted, chatComplete] of [
                [false, false],
                [true, false],
                [true, true],
              ] as const)
                for (const postSurvey of [false, true])
                  for (const completion of [null, ...PATHWAYS])
                    yield {
                      consented,
                      entryChoice,
                      baseline,
                      preSurvey,
                      condition,
                      sections,
                      chatStarted,
                      chatComplete,
                      postSurvey,
                      completion,
                    };
}

const ALL = [...allRecords()];

/** Every write a participant can attempt, for two sections. */
const WRITES: JourneyWrite[] = [
  { kind: 'consent' },
  { kind: 'entry' },
  { kind: 'baseline' },
  { kind: 'pre_survey' },
  { kind: 'assignment' },
  { kind: 'section_open', index: 0 },
  { kind: 'section_open', index: 1 },
  { kind: 'section_open', index: 2 },
  { kind: 'section_finish', index: 0 },
  { kind: 'section_finish', index: 1 },
  { kind: 'chat_start' },
  { kind: 'post_survey' },
  ...PATHWAYS.map((pathway): JourneyWrite => ({ kind: 'completion', pathway })),
];

/** The record a write stores, as the services store it (a section finish exactly at its minimum). */
function applyWrite(
  r: JourneyRecords,
  write: JourneyWrite,
  answers: { choice?: 'exit' | 'continue'; baseline?: number } = {},
): JourneyRecords {
  switch (write.kind) {
    case 'consent':
      return { ...r, consented: true };
    case 'entry':
      return { ...r, entryChoice: answers.choice ?? 'continue' };
    case 'baseline':
      return { ...r, baseline: answers.baseline ?? 4 };
    case 'pre_survey':
      return { ...r, preSurvey: true };
    case 'assignment':
      return { ...r, condition: 'mmr', sections: [UNOPENED, UNOPENED] };
    case 'section_open':
      return { ...r, sections: r.sections.map((s, i) => (i === write.index ? OPENED : s)) };
    case 'section_finish':
      return { ...r, sections: r.sections.map((s, i) => (i === write.index ? READ : s)) };
    case 'chat_start':
      return { ...r, chatStarted: true };
    case 'post_survey':
      return { ...r, postSurvey: true };
    case 'completion':
      return { ...r, completion: write.pathway };
  }
}

/**
 * The spec's order written as a path (section 4): the participant's path forks after the entry choice and the
 * baseline; the current step is the first one on it not done. Completion recorded ends the journey.
 */
function expectedStep(r: JourneyRecords): JourneyStepName {
  if (r.completion !== null) return 'completed';
  const path: [JourneyStepName, boolean][] = [
    ['consent', r.consented],
    ['entry', r.entryChoice !== null],
  ];
  if (r.entryChoice === 'exit') path.push(['confirm_exit', false]);
  else {
    path.push(['baseline', r.baseline !== null]);
    if (r.baseline === 7) path.push(['ceiling_exit', false]);
    else {
      path.push(
        ['pre_survey', r.preSurvey],
        ['assignment', r.condition !== null],
        ['sections', r.sections.every(sectionFinishedInTime)],
        ['chat', r.chatComplete],
        ['post_survey', r.postSurvey],
        ['completion', false],
      );
    }
  }
  const first = path.find(([, done]) => !done);
  if (!first) throw new Error('the path always ends in a step that is not done');
  return first[0];
}

describe('computeStep', () => {
  it(`holds the journey's order for every one of ${ALL.length} combinations of records`, () => {
    for (const r of ALL) {
      const { step, currentSection } = computeStep(r, FLOW);
      const ctx = JSON.stringify(r);
      expect(step, ctx).toBe(expectedStep(r));
      // The current section is the first one not read in time, and only while reading.
      expect(currentSection, ctx).toBe(
        step === 'sections' ? r.sections.findIndex((s) => !sectionFinishedInTime(s)) : null,
      );
    }
  });

  it('follows the spec on the three pathways from no records to completed', () => {
    const walk = (writes: JourneyWrite[], answers: { choice?: 'exit' | 'continue'; baseline?: number }) => {
      let r = NO_RECORDS;
      const steps: JourneyStepName[] = [computeStep(r, FLOW).step];
      for (const write of writes) {
        const position = computeStep(r, FLOW);
        expect(isWriteAllowed(write, r, position), `${write.kind} at ${position.step}`).toBe(true);
        r = applyWrite(r, write, answers);
        steps.push(computeStep(r, FLOW).step);
      }
      return steps;
    };
    expect(
      walk([{ kind: 'consent' }, { kind: 'entry' }, { kind: 'completion', pathway: 'confirm' }], { choice: 'exit' }),
    ).toEqual(['consent', 'entry', 'confirm_exit', 'completed']);
    expect(
      walk([{ kind: 'consent' }, { kind: 'entry' }, { kind: 'baseline' }, { kind: 'completion', pathway: 'ceiling' }], {
        baseline: 7,
      }),
    ).toEqual(['consent', 'entry', 'baseline', 'ceiling_exit', 'completed']);
    const chat: JourneyWrite[] = [{ kind: 'chat_start' }];
    const complete = walk(
      [
        { kind: 'consent' },
        { kind: 'entry' },
        { kind: 'baseline' },
        { kind: 'pre_survey' },
        { kind: 'assignment' },
        { kind: 'section_open', index: 0 },
        { kind: 'section_finish', index: 0 },
        { kind: 'section_open', index: 1 },
        { kind: 'section_finish', index: 1 },
        ...chat,
      ],
      { baseline: 3 },
    );
    expect(complete).toEqual([
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
    ]);
  });

  it('needs every section read no sooner than its minimum, in order', () => {
    const at = (sections: SectionRecord[]) =>
      computeStep(
        {
          ...NO_RECORDS,
          consented: true,
          entryChoice: 'continue',
          baseline: 2,
          preSurvey: true,
          condition: 'control',
          sections,
          chatComplete: true,
          postSurvey: true,
        },
        FLOW,
      );
    expect(at([READ, READ])).toEqual({ step: 'completion', currentSection: null });
    expect(at([READ, EARLY])).toEqual({ step: 'sections', currentSection: 1 });
    expect(at([EARLY, READ])).toEqual({ step: 'sections', currentSection: 0 });
    expect(at([UNOPENED, READ])).toEqual({ step: 'sections', currentSection: 0 });
    expect(sectionFinishedInTime({ minSeconds: 0, openedAt: 5, finishedAt: 5 })).toBe(true);
    expect(sectionFinishedInTime({ minSeconds: 1, openedAt: null, finishedAt: 5_000 })).toBe(false);
  });
});

describe('writes', () => {
  it('are accepted only at their own step, exactly one kind per step, and each moves the journey forward', () => {
    for (const r of ALL) {
      const position = computeStep(r, FLOW);
      const allowed = WRITES.filter((w) => !isWriteDone(w, r) && isWriteAllowed(w, r, position));
      for (const write of allowed) {
        expect(writeStep(write)).toBe(position.step);
        const after = computeStep(applyWrite(r, write, { baseline: 4 }), FLOW);
        // Opening a section or starting the chat keeps the step: the section is then to be finished, the chat held.
        if (write.kind === 'section_open' || write.kind === 'chat_start') expect(after).toEqual(position);
        else if (after.step === 'sections' && position.step === 'sections') {
          expect(after.currentSection ?? 0).toBeGreaterThan(position.currentSection ?? 0);
        } else if (after.step !== 'completed') expect(stepIndex(after.step)).toBeGreaterThan(stepIndex(position.step));
      }
      const kinds = new Set(allowed.map((w) => (w.kind === 'completion' ? `completion:${w.pathway}` : w.kind)));
      const expected: Partial<Record<JourneyStepName, string[]>> = {
        consent: ['consent'],
        entry: ['entry'],
        confirm_exit: ['completion:confirm'],
        baseline: ['baseline'],
        ceiling_exit: ['completion:ceiling'],
        pre_survey: ['pre_survey'],
        assignment: ['assignment'],
        post_survey: ['post_survey'],
        completion: ['completion:complete'],
        completed: [],
      };
      const want = expected[position.step];
      if (want) expect([...kinds], `${position.step} ${JSON.stringify(r)}`).toEqual(want);
      if (position.step === 'sections') {
        const current = r.sections[position.currentSection ?? -1];
        expect([...kinds]).toEqual([current?.openedAt === null ? 'section_open' : 'section_finish']);
        expect(allowed.every((w) => 'index' in w && w.index === position.currentSection)).toBe(true);
      }
      if (position.step === 'chat') expect([...kinds]).toEqual(r.chatStarted ? [] : ['chat_start']);
    }
  });

  it('treat a write already held by the records as a repeat, never as out of order', () => {
    const r: JourneyRecords = {
      ...NO_RECORDS,
      consented: true,
      entryChoice: 'continue',
      baseline: 5,
      preSurvey: true,
      condition: 'mmr',
      sections: [READ, EARLY],
      chatStarted: false,
    };
    expect(
      WRITES.filter((w) => isWriteDone(w, r)).map((w) => ('index' in w ? `${w.kind}:${w.index}` : w.kind)),
    ).toEqual([
      'consent',
      'entry',
      'baseline',
      'pre_survey',
      'assignment',
      'section_open:0',
      'section_open:1',
      'section_finish:0',
    ]);
    // A section finished too early is not done: it can be finished again once its time is up.
    expect(isWriteAllowed({ kind: 'section_finish', index: 1 }, r, computeStep(r, FLOW))).toBe(true);
    const completed = { ...r, completion: 'confirm' as Pathway };
    for (const pathway of PATHWAYS) expect(isWriteDone({ kind: 'completion', pathway }, completed)).toBe(true);
  });
});

describe('pathway and words', () => {
  it('names the pathway recorded or reached, and where the participant is in plain words', () => {
    const reached = (r: JourneyRecords) => pathwayAt(computeStep(r, FLOW), r);
    expect(reached({ ...NO_RECORDS, consented: true, entryChoice: 'exit' })).toBe('confirm');
    expect(reached({ ...NO_RECORDS, consented: true, entryChoice: 'continue', baseline: 7 })).toBe('ceiling');
    expect(reached({ ...NO_RECORDS, consented: true, entryChoice: 'continue', baseline: 6 })).toBeNull();
    expect(reached({ ...NO_RECORDS, completion: 'ceiling' })).toBe('ceiling');
    for (const step of JOURNEY_STEPS) {
      const words = whereYouAre({ step, currentSection: step === 'sections' ? 2 : null }, 4);
      expect(words.length).toBeGreaterThan(10);
      expect(words).not.toMatch(/_/);
    }
    expect(whereYouAre({ step: 'sections', currentSection: 2 }, 4)).toBe('you are reading section 3 of 4');
    expect(hasReached({ step: 'chat', currentSection: null }, 'sections')).toBe(true);
    expect(hasReached({ step: 'completed', currentSection: null }, 'sections')).toBe(false);
  });
});

import { flowOfLegacy, studyDefinition, threeArmTemplate, type FlowDefinition } from '@studychat/contracts';
import { describe, expect, it } from 'vitest';
import { flowPosition, type FlowRecords } from './flow-position.js';

const NONE: FlowRecords = {
  consented: false,
  answers: {},
  answered: new Set(),
  stepsDone: new Set(),
  condition: null,
  sections: [],
  chatStarted: false,
  chatComplete: false,
  completion: null,
};

const where = (flow: FlowDefinition, r: Partial<FlowRecords>) => {
  const p = flowPosition(flow, { ...NONE, ...r });
  return { step: p.step?.id ?? null, pathway: p.pathway, section: p.currentSection, flagged: p.flagged };
};

describe('flowPosition on the built-in study', () => {
  const flow = flowOfLegacy(studyDefinition);
  const read = { minSeconds: 1, openedAt: 0, finishedAt: 5000 };

  it("walks the spec's steps in order", () => {
    expect(where(flow, {}).step).toBe('consent');
    expect(where(flow, { consented: true }).step).toBe('entry');
    const afterEntry = { consented: true, answered: new Set(['entry']), answers: { choice: 'questions' } };
    expect(where(flow, afterEntry).step).toBe('baseline');
    const baseline = {
      ...afterEntry,
      answered: new Set(['entry', 'baseline']),
      answers: { choice: 'questions', vaccination_intention: '4' },
    };
    expect(where(flow, baseline).step).toBe('pre');
    const pre = { ...baseline, answered: new Set(['entry', 'baseline', 'pre']) };
    expect(where(flow, pre).step).toBe('assignment');
    const assigned = { ...pre, condition: 'mmr', sections: [read, { minSeconds: 1, openedAt: 1, finishedAt: null }] };
    expect(where(flow, assigned)).toMatchObject({ step: 'sections', section: 1 });
    const chat = { ...assigned, sections: [read, read] };
    expect(where(flow, chat).step).toBe('chat');
    const post = { ...chat, chatComplete: true };
    expect(where(flow, post).step).toBe('post');
    const done = { ...post, answered: new Set(['entry', 'baseline', 'pre', 'post']) };
    expect(where(flow, done)).toMatchObject({ step: 'end_complete', pathway: 'complete' });
    expect(where(flow, { ...done, completion: 'complete' })).toMatchObject({ step: null, pathway: 'complete' });
  });

  it('ends at the no-concerns exit and at the ceiling, as the spec does', () => {
    const consented = { consented: true };
    expect(where(flow, { ...consented, answered: new Set(['entry']), answers: { choice: 'confirm' } })).toMatchObject({
      step: 'end_confirm',
      pathway: 'confirm',
    });
    const ceiling = {
      ...consented,
      answered: new Set(['entry', 'baseline']),
      answers: { choice: 'questions', vaccination_intention: '7' },
    };
    expect(where(flow, ceiling)).toMatchObject({ step: 'end_ceiling', pathway: 'ceiling' });
  });
});

describe('flowPosition on a flow of another shape', () => {
  const flow = threeArmTemplate;
  const before = {
    consented: true,
    answered: new Set(['eligibility', 'before']),
    answers: { has_child: 'yes', intent_before: 4, attention: 'often' },
  };

  it('screens out on a rule, skips what an arm does not see, and flags a failed attention check', () => {
    expect(
      where(flow, { consented: true, answered: new Set(['eligibility']), answers: { has_child: 'no' } }),
    ).toMatchObject({
      step: 'not_eligible',
      pathway: 'ineligible',
    });
    expect(where(flow, { ...before, condition: 'none' }).step).toBe('after');
    expect(where(flow, { ...before, condition: 'text' }).step).toBe('official_text');
    expect(where(flow, { ...before, condition: 'chatbot' }).step).toBe('conversation');
    const careless = { ...before, answers: { ...before.answers, attention: 'never' }, condition: 'none' };
    expect(where(flow, careless)).toMatchObject({ step: 'after', flagged: ['attention'] });
  });
});

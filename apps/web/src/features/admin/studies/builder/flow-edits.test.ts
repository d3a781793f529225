import { flowProblems, type FlowStepType } from '@studychat/contracts/web';
import { describe, expect, it } from 'vitest';
import { blankFlow, newQuestion, newQuestionKey, uniqueId } from './defaults';
import {
  addCondition,
  addStep,
  duplicateStep,
  earlierKeys,
  moveStep,
  removeCondition,
  removeStep,
  withConditions,
} from './flow-edits';
import { isBuildableFlow, withContainers } from './shape';
import { movedIndex, remapIndices } from './step-labels';

describe('the builder’s flow edits', () => {
  it('starts a blank study that passes the flow checks', () => {
    const flow = blankFlow();
    expect(flowProblems(flow)).toEqual([]);
    expect(flow.steps.map((s) => s.type)).toEqual(['page', 'end']);
    expect(flow.steps[0]).toMatchObject({ consent: true });
    expect(flow.pathways.map((p) => p.key)).toEqual(['complete']);
    expect(flow.conditions).toHaveLength(1);
    expect(isBuildableFlow(flow)).toBe(true);
  });

  it('adds each step type before the first end with a unique id; a flow of them all passes the checks', () => {
    let flow = addCondition(blankFlow());
    const types: FlowStepType[] = ['questions', 'ai_text', 'randomise', 'page', 'chat', 'questions'];
    for (const type of types) flow = addStep(flow, type).flow;
    expect(flow.steps.map((s) => s.id)).toEqual([
      'consent',
      'questions',
      'ai_text',
      'randomise',
      'page',
      'chat',
      'questions_2',
      'done',
    ]);
    expect(flow.steps[3]).toMatchObject({ weights: { main: 1, arm_2: 1 } });
    expect(flow.steps[6]).toMatchObject({ questions: [{ key: 'q2' }] });
    expect(flowProblems(flow)).toEqual([]);
    // A screen reads the last answer before it and ends with another pathway than 'complete' when there is one.
    flow = { ...flow, pathways: [...flow.pathways, { key: 'out', label: 'Out' }] };
    const screened = addStep(flow, 'screen');
    expect(screened.flow.steps[screened.index]).toMatchObject({ when: { key: 'q2' }, pathway: 'out' });
    const ended = addStep(screened.flow, 'end');
    expect(ended.index).toBe(ended.flow.steps.length - 1);
    expect(ended.flow.steps[ended.index]).toMatchObject({ pathway: 'out' });
  });

  it('duplicates a step with new ids and keys, removes and moves steps', () => {
    let flow = addStep(blankFlow(), 'questions').flow;
    flow = duplicateStep(flow, 1);
    expect(flow.steps.map((s) => s.id)).toEqual(['consent', 'questions', 'questions_copy', 'done']);
    expect(flow.steps[2]).toMatchObject({ questions: [{ key: 'q1_copy' }] });
    expect(flowProblems(flow)).toEqual([]);
    expect(moveStep(flow, 2, 0).steps.map((s) => s.id)).toEqual(['questions_copy', 'consent', 'questions', 'done']);
    expect(moveStep(flow, 0, -1)).toBe(flow);
    expect(removeStep(flow, 1).steps.map((s) => s.id)).toEqual(['consent', 'questions_copy', 'done']);
  });

  it('lists the answers of earlier steps only', () => {
    let flow = addStep(blankFlow(), 'questions').flow;
    flow = addStep(flow, 'ai_text').flow;
    flow = addStep(flow, 'questions').flow;
    expect(earlierKeys(flow, 1)).toEqual([]);
    expect(earlierKeys(flow, 2)).toEqual(['q1']);
    expect(earlierKeys(flow, 3)).toEqual(['q1', 'ai_text']);
    expect(earlierKeys(flow, 4)).toEqual(['q1', 'ai_text', 'q2']);
  });

  it('adds and removes conditions with their weights and arms; none chosen is everyone', () => {
    let flow = addCondition(blankFlow());
    flow = addStep(flow, 'randomise').flow;
    flow = addStep(flow, 'chat').flow;
    flow = {
      ...flow,
      steps: flow.steps.map((s, i) => (i === 1 ? s : s.type === 'chat' ? withConditions(s, ['arm_2']) : s)),
    };
    const removed = removeCondition(flow, 1);
    expect(removed.conditions.map((c) => c.id)).toEqual(['main']);
    expect(removed.steps[1]).toMatchObject({ weights: { main: 1 } });
    expect(Object.keys((removed.steps[2] as { arms: object }).arms)).toEqual(['main']);
    // The chat was for arm_2 only: it keeps naming it, for the check to show.
    expect(removed.steps[2]?.conditions).toEqual(['arm_2']);
    const chat = flow.steps[2];
    if (!chat) throw new Error('no chat step');
    expect(withConditions(chat, [])).not.toHaveProperty('conditions');
  });

  it('names, keys and indices', () => {
    expect(uniqueId('page', ['page', 'page_2'])).toBe('page_3');
    expect(newQuestionKey(blankFlow(), ['q1'])).toBe('q2');
    expect(newQuestion('likert', 'k')).toMatchObject({ points: 7 });
    expect([0, 1, 2, 3].map((i) => movedIndex(i, 0, 2))).toEqual([2, 0, 1, 3]);
    expect([0, 1, 2, 3].map((i) => movedIndex(i, 3, 1))).toEqual([0, 2, 3, 1]);
    expect([...remapIndices(new Set([0, 2]), (i) => (i === 0 ? null : i - 1))]).toEqual([1]);
    expect(withContainers({ steps: [{ id: 'r', type: 'randomise' }] })).toEqual({
      steps: [{ id: 'r', type: 'randomise', weights: {} }],
    });
    expect(isBuildableFlow({ ...blankFlow(), steps: [{ id: 'x', type: 'chat' }] })).toBe(false);
  });
});

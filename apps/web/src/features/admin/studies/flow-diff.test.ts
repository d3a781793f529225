import { FLOW_TEMPLATES, type FlowDefinition } from '@studychat/contracts/web';
import { describe, expect, it } from 'vitest';
import { flowDiff, fieldChanges } from './flow-diff';

const threeArmTemplate = FLOW_TEMPLATES.find((t) => t.id === 'three-arm') as FlowDefinition;
const copy = (): FlowDefinition => structuredClone(threeArmTemplate) as FlowDefinition;
const ids = (flow: FlowDefinition) => flow.steps.map((s) => s.id);

describe('flowDiff', () => {
  it('finds nothing between a flow and its copy', () => {
    const diff = flowDiff(threeArmTemplate, copy());
    expect(diff.same).toBe(true);
    expect(diff.steps.every((s) => s.kind === 'kept' && !s.moved && s.fields.length === 0)).toBe(true);
  });

  it('lists an added and a removed step in place, with their positions', () => {
    const after = copy();
    const removedAt = ids(after).indexOf('eligible');
    after.steps.splice(removedAt, 1);
    after.steps.splice(1, 0, { id: 'note', type: 'page', title: 'A note', blocks: [], button: 'Next' });
    const diff = flowDiff(threeArmTemplate, after);
    expect(diff.same).toBe(false);
    const added = diff.steps.find((s) => s.id === 'note');
    expect(added).toMatchObject({ kind: 'added', type: 'page', after: 2 });
    const removed = diff.steps.find((s) => s.id === 'eligible');
    expect(removed).toMatchObject({ kind: 'removed', type: 'screen', before: removedAt + 1 });
    // The removed step shows after the step that preceded it in the older version.
    const order = diff.steps.map((s) => s.id);
    expect(order.indexOf('eligible')).toBe(order.indexOf('eligibility') + 1);
    // Shifted positions alone are not moves.
    expect(diff.steps.filter((s) => s.moved)).toEqual([]);
  });

  it('marks only the step that moved, not the ones it passed', () => {
    const after = copy();
    const from = ids(after).indexOf('after');
    const [moved] = after.steps.splice(from, 1);
    if (!moved) throw new Error('fixture');
    after.steps.splice(1, 0, moved);
    const diff = flowDiff(threeArmTemplate, after);
    expect(diff.steps.filter((s) => s.moved).map((s) => s.id)).toEqual(['after']);
    expect(diff.steps.find((s) => s.id === 'after')).toMatchObject({ before: from + 1, after: 2, fields: [] });
  });

  it('names a changed field with old and new values, and a long text with a line diff', () => {
    const after = copy();
    const eligibility = after.steps.find((s) => s.id === 'eligibility');
    if (eligibility?.type !== 'questions') throw new Error('fixture');
    eligibility.title = 'About your family';
    const question = eligibility.questions[0];
    if (!question) throw new Error('fixture');
    question.required = false;
    const chat = after.steps.find((s) => s.id === 'conversation');
    const arm = chat?.type === 'chat' ? chat.arms.chatbot : undefined;
    if (!arm) throw new Error('fixture');
    arm.systemPrompt = arm.systemPrompt.replace(
      'Do not give individual medical advice;',
      'Never give individual medical advice;',
    );
    const diff = flowDiff(threeArmTemplate, after);
    expect(diff.steps.find((s) => s.id === 'eligibility')?.fields).toEqual([
      { path: 'title', kind: 'value', before: 'About you', after: 'About your family' },
      { path: 'questions[has_child].required', kind: 'value', before: 'true', after: 'false' },
    ]);
    const prompt = diff.steps.find((s) => s.id === 'conversation')?.fields;
    expect(prompt).toHaveLength(1);
    expect(prompt?.[0]).toMatchObject({ path: 'arms.chatbot.systemPrompt', kind: 'text' });
    const lines = prompt?.[0]?.kind === 'text' ? prompt[0].lines : [];
    // Sentence by sentence: only the changed sentence is removed and added.
    expect(lines.filter((l) => l.kind !== 'same')).toEqual([
      { kind: 'removed', text: expect.stringContaining('Do not give') as string },
      { kind: 'added', text: expect.stringContaining('Never give') as string },
    ]);
    expect(lines.filter((l) => l.kind === 'same').length).toBeGreaterThan(0);
  });

  it('lists fields added and removed, questions reordered, and a type change', () => {
    expect(
      fieldChanges({ a: 1, list: [{ key: 'x' }, { key: 'y' }] }, { b: 'two', list: [{ key: 'y' }, { key: 'x' }] }),
    ).toEqual([
      { path: 'b', kind: 'added', after: 'two' },
      { path: 'list (order)', kind: 'value', before: 'x, y', after: 'y, x' },
      { path: 'a', kind: 'removed', before: '1' },
    ]);
    const after = copy();
    const at = ids(after).indexOf('eligible');
    after.steps[at] = { id: 'eligible', type: 'page', title: 'Eligible', blocks: [], button: 'Next' };
    const change = flowDiff(threeArmTemplate, after).steps.find((s) => s.id === 'eligible');
    expect(change?.type).toBe('page');
    expect(change?.fields).toContainEqual({ path: 'type', kind: 'value', before: 'screen', after: 'page' });
  });

  it('reports conditions, pathways and study texts', () => {
    const after = copy();
    after.title = 'HPV, second wave';
    after.texts.welcome = 'Welcome back.';
    after.conditions = after.conditions.filter((c) => c.id !== 'none');
    after.conditions.push({ id: 'video', label: 'Video' });
    after.conditions[0] = { id: 'chatbot', label: 'Chat with the assistant' };
    after.pathways.push({ key: 'timeout', label: 'timed out' });
    const diff = flowDiff(threeArmTemplate, after);
    expect(diff.study.map((c) => c.path)).toEqual(['title', 'texts.welcome']);
    expect(diff.conditions.added).toEqual(['video']);
    expect(diff.conditions.removed).toEqual(['none']);
    expect(diff.conditions.changed).toEqual([
      {
        key: 'chatbot',
        fields: [{ path: 'label', kind: 'value', before: 'Chatbot', after: 'Chat with the assistant' }],
      },
    ]);
    expect(diff.pathways).toEqual({ added: ['timeout'], removed: [], changed: [] });
  });
});

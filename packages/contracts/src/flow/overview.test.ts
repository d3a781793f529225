import { describe, expect, it } from 'vitest';
import { flowOverview } from './overview.js';
import { FLOW_TEMPLATES, threeArmTemplate } from './templates/index.js';
import type { FlowDefinition, FlowStep } from './types.js';
import { flowProblems } from './checks.js';

const replaceStep = (flow: FlowDefinition, id: string, step: FlowStep): FlowDefinition => ({
  ...flow,
  steps: flow.steps.map((s) => (s.id === id ? step : s)),
});

describe("a flow's overview before launch", () => {
  it("walks each condition to its end: the three-arm study's arms, with and without a chat", () => {
    const { walks, warnings } = flowOverview(threeArmTemplate);
    expect(walks.map((w) => [w.condition, w.chat])).toEqual([
      ['chatbot', true],
      ['text', false],
      ['none', false],
    ]);
    const text = walks.find((w) => w.condition === 'text');
    expect(text?.steps.map((s) => s.id)).toContain('official_text');
    expect(text?.steps.map((s) => s.id)).not.toContain('conversation');
    expect(text?.steps.at(-1)?.type).toBe('end');
    // Every arm can be screened out before randomisation, and completes.
    for (const walk of walks) expect(walk.pathways.sort()).toEqual(['complete', 'ineligible']);
    // The official text's 30 seconds are the text arm's least time; the estimate is never below it.
    expect(text?.minimumSeconds).toBe(30);
    for (const walk of walks) expect(walk.estimatedSeconds).toBeGreaterThanOrEqual(walk.minimumSeconds);
    expect(warnings).toEqual([]);
  });

  it('finds nothing to warn about in any template', () => {
    for (const flow of FLOW_TEMPLATES) expect(flowOverview(flow).warnings, flow.id).toEqual([]);
  });

  it('warns of a screen that ends the study for most answers', () => {
    const screen = threeArmTemplate.steps.find((s) => s.type === 'screen');
    if (!screen || screen.type !== 'screen') throw new Error('no screen');
    const before = threeArmTemplate.steps.find((s) => s.id === 'before');
    if (!before || before.type !== 'questions') throw new Error('no questions');
    const likert = before.questions.find((q) => q.type === 'likert');
    if (!likert) throw new Error('no likert');
    // A screen after the "before" questions that ends everyone below 6 of 7: 5 of 7 answers.
    const strict: FlowDefinition = {
      ...threeArmTemplate,
      steps: threeArmTemplate.steps.flatMap((s) =>
        s.id === 'before'
          ? [s, { id: 'strict', type: 'screen', when: { key: likert.key, op: 'lt', value: 6 }, pathway: 'ineligible' }]
          : [s],
      ),
    };
    expect(flowProblems(strict)).toEqual([]);
    const index = strict.steps.findIndex((s) => s.id === 'strict');
    expect(flowOverview(strict).warnings).toEqual([
      {
        path: `steps.${index}.when`,
        message: `this screen ends the study for 5 of the 7 possible answers to "${likert.key}": most participants would leave here`,
      },
    ]);
    // At the ceiling alone (1 of 7), nothing to say.
    const ceiling = replaceStep(strict, 'strict', {
      ...screen,
      id: 'strict',
      when: { key: likert.key, op: 'eq', value: 7 },
    });
    expect(flowOverview(ceiling).warnings).toEqual([]);
  });

  it('warns of a pathway no one can end on, and of a chat done before anything is said', () => {
    const unreachable: FlowDefinition = {
      ...threeArmTemplate,
      pathways: [...threeArmTemplate.pathways, { key: 'spare', label: 'never used' }],
    };
    expect(flowOverview(unreachable).warnings).toEqual([
      {
        path: `pathways.${threeArmTemplate.pathways.length}`,
        message: 'no participant can end on the pathway "spare": no screen, check or end step of any walk leads to it',
      },
    ]);
    const chat = threeArmTemplate.steps.find((s) => s.type === 'chat');
    if (!chat || chat.type !== 'chat') throw new Error('no chat');
    const arm = chat.arms.chatbot;
    if (!arm) throw new Error('no chatbot arm');
    const instant = replaceStep(threeArmTemplate, chat.id, {
      ...chat,
      arms: { ...chat.arms, chatbot: { ...arm, completion: { rounds: 0, points: 0 } } },
    });
    const index = threeArmTemplate.steps.indexOf(chat);
    expect(flowOverview(instant).warnings).toEqual([
      {
        path: `steps.${index}.arms.chatbot.completion`,
        message:
          'the chat of "chatbot" is done before the participant writes anything: give it rounds, points or minutes',
      },
    ]);
  });
});

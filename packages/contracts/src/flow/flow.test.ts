import { describe, expect, it } from 'vitest';
import { studyDefinition } from '../study/mmr-study.js';
import { flowOfLegacy, LEGACY_STEP } from './legacy.js';
import { FLOW_TEMPLATES, threeArmTemplate } from './templates/index.js';
import { answerProblem, answersProblems, normaliseAnswers } from './answers.js';
import { checkPasses, pipeAnswers, ruleHolds, stepsFor } from './rules.js';
import { validateFlowDefinition } from './schema.js';
import type { StaticSection } from '../study/types.js';
import type { FlowDefinition, FlowQuestion } from './types.js';

/** A small valid flow: a question, randomisation into two arms of which one chats, and an end. */
function smallFlow(): FlowDefinition {
  return {
    format: 'flow',
    id: 'small',
    title: 'Small',
    texts: { welcome: 'Welcome', disclaimer: 'Not advice.' },
    conditions: [
      { id: 'chat_arm', label: 'Chat' },
      { id: 'text_arm', label: 'Text only' },
    ],
    pathways: [
      { key: 'complete', label: 'finished' },
      { key: 'screened', label: 'screened out' },
    ],
    steps: [
      {
        id: 'belief',
        type: 'questions',
        title: 'Your view',
        button: 'Next',
        questions: [
          {
            key: 'belief',
            text: 'What do you believe?',
            required: true,
            type: 'text',
            minChars: 5,
            maxChars: 500,
            multiline: true,
          },
          {
            key: 'rating',
            text: 'How sure?',
            required: true,
            type: 'slider',
            min: 0,
            max: 100,
            step: 1,
            anchors: { min: 'Not', max: 'Very' },
          },
        ],
      },
      { id: 'too_sure', type: 'screen', when: { key: 'rating', op: 'gte', value: 100 }, pathway: 'screened' },
      { id: 'assign', type: 'randomise', weights: { chat_arm: 2, text_arm: 1 } },
      {
        id: 'talk',
        type: 'chat',
        title: 'Chat',
        intro: 'Talk about {{belief}}',
        arms: {
          chat_arm: {
            systemPrompt: 'The participant believes {{belief}} with {{rating}}% certainty.',
            fallbackGreeting: 'Hello',
            completion: { rounds: 3, points: 0 },
            scripted: { opening: 'Hi', replies: ['Yes'], closing: 'Bye' },
          },
        },
      },
      {
        id: 'info',
        type: 'page',
        conditions: ['text_arm'],
        title: 'Read',
        blocks: [{ paragraphs: ['Text'] }],
        button: 'Next',
      },
      { id: 'done', type: 'end', pathway: 'complete', title: 'Thanks', blocks: [] },
      { id: 'out', type: 'end', pathway: 'screened', title: 'Thanks anyway', blocks: [] },
    ],
  };
}

const issuesOf = (flow: unknown) => {
  const result = validateFlowDefinition(flow);
  return result.ok ? [] : result.issues;
};

describe('flow definitions', () => {
  it('accepts the built-in study as a flow, and a study in another shape', () => {
    expect(issuesOf(flowOfLegacy(studyDefinition))).toEqual([]);
    expect(issuesOf(smallFlow())).toEqual([]);
  });

  it("walks the built-in flow in the spec's order, each condition to the whole study's end", () => {
    const flow = flowOfLegacy(studyDefinition);
    expect(stepsFor(flow, 'mmr').map((s) => s.id)).toEqual([
      LEGACY_STEP.consent,
      LEGACY_STEP.entry,
      LEGACY_STEP.entryScreen,
      LEGACY_STEP.baseline,
      LEGACY_STEP.baselineScreen,
      LEGACY_STEP.pre,
      LEGACY_STEP.randomise,
      LEGACY_STEP.reading,
      LEGACY_STEP.chat,
      LEGACY_STEP.post,
      'end_complete',
      'end_confirm',
      'end_ceiling',
    ]);
  });

  it('gives an arm without a chat step no chat, and a page only to the conditions it names', () => {
    const flow = smallFlow();
    expect(stepsFor(flow, 'chat_arm').map((s) => s.id)).toEqual([
      'belief',
      'too_sure',
      'assign',
      'talk',
      'done',
      'out',
    ]);
    expect(stepsFor(flow, 'text_arm').map((s) => s.id)).toEqual([
      'belief',
      'too_sure',
      'assign',
      'info',
      'done',
      'out',
    ]);
  });

  it.each([
    [
      'a pipe to a later answer',
      (f: FlowDefinition) => {
        const first = f.steps[0];
        if (first?.type === 'questions') first.intro = 'You said {{rating_later}}';
      },
      /is not an answer given before this step/,
    ],
    [
      'a duplicate answer key',
      (f: FlowDefinition) => {
        const first = f.steps[0];
        if (first?.type === 'questions' && first.questions[1]) first.questions[1].key = 'belief';
      },
      /answer keys must be unique/,
    ],
    [
      'a screen to an unknown pathway',
      (f: FlowDefinition) => {
        const screen = f.steps[1];
        if (screen?.type === 'screen') screen.pathway = 'nowhere';
      },
      /not one of the study's pathways/,
    ],
    [
      'a condition without a weight',
      (f: FlowDefinition) => {
        const assign = f.steps[2];
        if (assign?.type === 'randomise') assign.weights = { chat_arm: 1 };
      },
      /every condition needs a weight/,
    ],
    [
      'a chat before randomisation',
      (f: FlowDefinition) => {
        const [a, b, c, d, ...rest] = f.steps;
        if (a && b && c && d) f.steps = [a, b, d, c, ...rest];
      },
      /must come after the randomise step/,
    ],
    [
      'a step no one reaches',
      (f: FlowDefinition) => {
        const info = f.steps.find((s) => s.id === 'info');
        f.steps = [...f.steps.filter((s) => s !== info), ...(info ? [info] : [])];
      },
      /reaches no end step|never reaches this step/,
    ],
    [
      'a rule on a later answer',
      (f: FlowDefinition) => {
        const screen = f.steps[1];
        if (screen?.type === 'screen') screen.when = { key: 'later', op: 'eq', value: 1 };
      },
      /is not an answer given before this step/,
    ],
  ])('refuses %s, naming where', (_, change, message) => {
    const flow = smallFlow();
    change(flow);
    const issues = issuesOf(flow);
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.map((i) => i.message).join('\n')).toMatch(message);
    expect(issues.every((i) => i.path.startsWith('steps'))).toBe(true);
  });

  it("checks a reading section's title for pipes, and refuses a condition that reads no section", () => {
    const flow = smallFlow();
    const section: StaticSection = {
      id: 's1',
      title: 'About {{belief}}',
      minSeconds: 5,
      blocks: [{ paragraphs: ['{{rating}}'] }],
    };
    flow.steps.splice(3, 0, {
      id: 'read',
      type: 'reading',
      title: 'Read',
      intro: [],
      sections: { text_arm: [section] },
    });
    expect(issuesOf(flow)).toEqual([]);
    section.title = 'About {{later}}';
    expect(issuesOf(flow)).toEqual([
      { path: 'steps.3.sections.text_arm.0.title', message: '{{later}} is not an answer given before this step' },
    ]);
    section.title = 'About';
    // A pipe in a block's text: the issue names the text itself, so the editor shows it at its field.
    section.blocks = [{ heading: 'H', paragraphs: ['ok', 'You said {{later}}'] }];
    expect(issuesOf(flow)).toEqual([
      {
        path: 'steps.3.sections.text_arm.0.blocks.0.paragraphs.1',
        message: '{{later}} is not an answer given before this step',
      },
    ]);
    section.blocks = [{ paragraphs: ['ok'] }];
    const read = flow.steps[3];
    if (read?.type === 'reading') read.sections.chat_arm = [];
    expect(issuesOf(flow)).toContainEqual({
      path: 'steps.3.sections.chat_arm',
      message: 'a condition that reads needs at least one section',
    });
    section.minSeconds = 0;
    expect(issuesOf(flow)).toContainEqual({
      path: 'steps.3.sections.text_arm.0.minSeconds',
      message: 'must be 1 to 3600',
    });
  });

  it('checks each comparison of a combined rule where it is, and refuses an empty group', () => {
    const flow = smallFlow();
    const screen = flow.steps[1];
    if (screen?.type !== 'screen') throw new Error('no screen step');
    screen.when = {
      any: [{ key: 'rating', op: 'gte', value: 100 }, { all: [{ key: 'belief', op: 'gt', value: 'x' }] }],
    };
    expect(issuesOf(flow)).toEqual([{ path: 'steps.1.when.any.1.all.0.value', message: 'must be a number' }]);
    screen.when = { all: [] };
    expect(issuesOf(flow)).toContainEqual({ path: 'steps.1.when.all', message: 'must hold at least one comparison' });
  });

  it('refuses a likert scale with the wrong number of labels, and a slider with no range', () => {
    const flow = smallFlow();
    const first = flow.steps[0];
    if (first?.type !== 'questions') throw new Error('fixture');
    first.questions.push({
      key: 'agree',
      text: 'Agree?',
      required: true,
      type: 'likert',
      points: 5,
      labels: ['a', 'b'],
    });
    const slider = first.questions[1];
    if (slider?.type === 'slider') slider.max = 0;
    const paths = issuesOf(flow).map((i) => i.path);
    expect(paths).toContain('steps.0.questions.2.labels');
    expect(paths).toContain('steps.0.questions.1.max');
  });
});

describe('rules, pipes and checks', () => {
  it('compares answers as numbers where both are numbers, and as text otherwise', () => {
    expect(ruleHolds({ key: 'x', op: 'eq', value: 7 }, { x: '7' })).toBe(true);
    expect(ruleHolds({ key: 'x', op: 'gte', value: 50 }, { x: 49.5 })).toBe(false);
    expect(ruleHolds({ key: 'x', op: 'in', value: ['a', 'b'] }, { x: 'b' })).toBe(true);
    expect(ruleHolds({ key: 'x', op: 'includes', value: 'b' }, { x: ['a', 'b'] })).toBe(true);
    expect(ruleHolds({ key: 'x', op: 'eq', value: 1 }, {})).toBe(false);
    expect(
      ruleHolds({ all: [{ key: 'x', op: 'answered' }, { any: [{ key: 'y', op: 'lt', value: 3 }] }] }, { x: 'a', y: 2 }),
    ).toBe(true);
  });

  it('pipes answers as the participant would read them: choice labels, numbers, text', () => {
    const flow = smallFlow();
    const first = flow.steps[0];
    if (first?.type === 'questions')
      first.questions.push({
        key: 'side',
        text: 'Side?',
        required: true,
        type: 'single',
        options: [
          { value: 'l', label: 'Left' },
          { value: 'r', label: 'Right' },
        ],
      });
    expect(
      pipeAnswers('{{belief}} ({{rating}}%, {{side}}) {{unknown}}', flow, {
        belief: 'Tea is good',
        rating: 80,
        side: 'r',
      }),
    ).toBe('Tea is good (80%, Right) {{unknown}}');
  });

  it('checks an attention question against its expected answer', () => {
    const q: FlowQuestion = {
      key: 'attn',
      text: 'Choose blue',
      required: true,
      type: 'single',
      options: [
        { value: 'red', label: 'Red' },
        { value: 'blue', label: 'Blue' },
      ],
      check: { expected: 'blue', onFail: { flag: true } },
    };
    expect(checkPasses(q, 'blue')).toBe(true);
    expect(checkPasses(q, 'red')).toBe(false);
    expect(
      checkPasses({ ...q, type: 'multiple', check: { expected: ['a', 'b'], onFail: { flag: true } } }, ['b', 'a']),
    ).toBe(true);
  });
});

describe('answers', () => {
  const slider: FlowQuestion = {
    key: 'sure',
    text: 'How sure?',
    required: true,
    type: 'slider',
    min: 0,
    max: 100,
    step: 5,
    anchors: { min: 'Not', max: 'Very' },
  };
  const text: FlowQuestion = {
    key: 'why',
    text: 'Why?',
    required: false,
    type: 'text',
    minChars: 3,
    maxChars: 5,
    multiline: false,
  };
  const many: FlowQuestion = {
    key: 'pets',
    text: 'Pets?',
    required: true,
    type: 'multiple',
    maxChoices: 2,
    options: [
      { value: 'cat', label: 'Cat' },
      { value: 'dog', label: 'Dog' },
      { value: 'fish', label: 'Fish' },
    ],
  };

  it('refuses what does not fit each question type, in words a participant reads', () => {
    expect(answerProblem(slider, 55)).toBeNull();
    expect(answerProblem(slider, 52)).toMatch(/steps of 5/);
    expect(answerProblem(slider, 101)).toMatch(/from 0 to 100/);
    expect(answerProblem(slider, undefined)).toMatch(/Please answer/);
    expect(answerProblem(text, undefined)).toBeNull();
    expect(answerProblem(text, ' ab ')).toMatch(/at least 3/);
    expect(answerProblem(text, '🙂🙂🙂')).toBeNull();
    expect(answerProblem(text, 'abcdef')).toMatch(/at most 5/);
    expect(answerProblem(many, ['cat', 'dog'])).toBeNull();
    expect(answerProblem(many, ['cat', 'dog', 'fish'])).toMatch(/at most 2/);
    expect(answerProblem(many, ['cat', 'cat'])).toMatch(/each option once/);
    expect(answerProblem(many, ['lion'])).toMatch(/from the options/);
  });

  it('names unknown keys and stores numbers as numbers, text trimmed', () => {
    const step = { questions: [slider, text] };
    expect(answersProblems(step, { sure: 50, extra: 'x' })).toEqual([
      { key: 'extra', message: 'This page does not ask this.' },
    ]);
    expect(normaliseAnswers(step, { sure: '50', why: ' yes ' })).toEqual({ sure: 50, why: 'yes' });
  });
});

describe('the templates', () => {
  it.each(FLOW_TEMPLATES.map((t) => [t.id, t] as const))('%s is a valid flow', (_, template) => {
    expect(issuesOf(template)).toEqual([]);
  });

  it('gives the three-arm study’s no-message arm neither the text nor the chat', () => {
    const ids = (c: string) => stepsFor(threeArmTemplate, c).map((s) => s.id);
    expect(ids('none')).not.toContain('conversation');
    expect(ids('none')).not.toContain('official_text');
    expect(ids('text')).toContain('official_text');
    expect(ids('chatbot')).toContain('conversation');
  });
});

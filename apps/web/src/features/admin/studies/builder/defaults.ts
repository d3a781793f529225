import type {
  ChatArm,
  FlowDefinition,
  FlowQuestion,
  FlowQuestionType,
  FlowStep,
  FlowStepType,
  StaticSection,
} from '@studychat/contracts/web';

// What the builder adds: a new step or question of each type with words a researcher replaces, and the blank
// study (consent page, one end, one condition). Every id and key is new in the flow.

/** `base`, or `base_2`, `base_3`, ... : the first not taken. */
export function uniqueId(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n += 1) if (!used.has(`${base}_${n}`)) return `${base}_${n}`;
}

/** Every answer key of the flow (question keys and AI text step ids: both are read by pipes). */
export function answerKeys(flow: FlowDefinition): string[] {
  return flow.steps.flatMap((step) =>
    step.type === 'questions' ? step.questions.map((q) => q.key) : step.type === 'ai_text' ? [step.id] : [],
  );
}

/** A key not yet used by an answer or a step, `q1`, `q2`, ... */
export function newQuestionKey(flow: FlowDefinition, extra: string[] = []): string {
  const taken = new Set([...answerKeys(flow), ...flow.steps.map((s) => s.id), ...extra]);
  for (let n = 1; ; n += 1) if (!taken.has(`q${n}`)) return `q${n}`;
}

/** A question of `type` with the type's fields set to something that runs. */
export function newQuestion(type: FlowQuestionType, key: string, text = 'New question'): FlowQuestion {
  const base = { key, text, required: true };
  const options = [
    { value: 'a', label: 'Option A' },
    { value: 'b', label: 'Option B' },
  ];
  switch (type) {
    case 'single':
      return { ...base, type, options };
    case 'multiple':
      return { ...base, type, options };
    case 'likert':
      return { ...base, type, points: 7, labels: { min: 'Strongly disagree', max: 'Strongly agree' } };
    case 'slider':
      return { ...base, type, min: 0, max: 100, step: 1, anchors: { min: 'Not at all', max: 'Completely' } };
    case 'number':
      return { ...base, type, integer: true };
    case 'text':
      return { ...base, type, minChars: 1, maxChars: 1000, multiline: true };
  }
}

/** A chat arm that runs as it is (the researcher writes the prompt). */
export function newArm(): ChatArm {
  return {
    systemPrompt: 'You are a helpful assistant.',
    fallbackGreeting: 'Hello! What would you like to talk about?',
    completion: { rounds: 3, points: 0 },
    scripted: { opening: 'Hello!', replies: ['Thank you for sharing.'], closing: 'Thank you for the chat.' },
  };
}

const STEP_ID_BASE: Record<FlowStepType, string> = {
  page: 'page',
  questions: 'questions',
  reading: 'reading',
  chat: 'chat',
  ai_text: 'ai_text',
  randomise: 'randomise',
  screen: 'screen',
  end: 'end',
};

/** A new step of `type` for `flow`, to be placed at `index` (a screen reads the last answer before it). */
export function newStep(type: FlowStepType, flow: FlowDefinition, index: number): FlowStep {
  const id = uniqueId(STEP_ID_BASE[type], [...flow.steps.map((s) => s.id), ...answerKeys(flow)]);
  const conditions = flow.conditions.map((c) => c.id);
  switch (type) {
    case 'page':
      return {
        id,
        type,
        title: 'New page',
        blocks: [{ paragraphs: ['Write the text of this page here.'] }],
        button: 'Continue',
      };
    case 'questions':
      return {
        id,
        type,
        title: 'Questions',
        questions: [newQuestion('text', newQuestionKey(flow))],
        button: 'Continue',
      };
    case 'reading':
      return {
        id,
        type,
        title: 'Reading',
        intro: [],
        sections: Object.fromEntries(conditions.map((c) => [c, [newSection([])]])),
      };
    case 'chat':
      return {
        id,
        type,
        title: 'Chat',
        intro: 'Chat with the AI assistant.',
        arms: Object.fromEntries(conditions.map((c) => [c, newArm()])),
      };
    case 'ai_text':
      return {
        id,
        type,
        title: 'Your view in one sentence',
        instructions: 'Read the summary and correct it if it is not what you meant.',
        prompt: 'Summarise the participant’s answer in one sentence.',
        allowCorrection: true,
        maxChars: 500,
        confirmLabel: 'Confirm',
        scripted: 'A one-sentence summary.',
      };
    case 'randomise':
      return { id, type, weights: Object.fromEntries(conditions.map((c) => [c, 1])) };
    case 'screen': {
      const earlier = answerKeys({ ...flow, steps: flow.steps.slice(0, index) });
      const pathway = flow.pathways.find((p) => p.key !== 'complete') ?? flow.pathways[0];
      return { id, type, when: { key: earlier.at(-1) ?? '', op: 'eq', value: '' }, pathway: pathway?.key ?? '' };
    }
    case 'end': {
      const ended = new Set(flow.steps.flatMap((s) => (s.type === 'end' ? [s.pathway] : [])));
      const pathway = flow.pathways.find((p) => !ended.has(p.key)) ?? flow.pathways[0];
      return {
        id,
        type,
        pathway: pathway?.key ?? '',
        title: 'Thank you',
        blocks: [{ paragraphs: ['Thank you for taking part.'] }],
      };
    }
  }
}

/** A blank study: a consent page, one end step (pathway 'complete'), one condition; valid as it is. */
export function blankFlow(): FlowDefinition {
  return {
    format: 'flow',
    id: 'new_study',
    title: 'New study',
    texts: {
      welcome: 'A research study',
      disclaimer: 'This study is for research purposes only. You may stop at any time.',
    },
    conditions: [{ id: 'main', label: 'Main' }],
    pathways: [{ key: 'complete', label: 'Completed' }],
    steps: [
      {
        id: 'consent',
        type: 'page',
        title: 'Informed consent',
        consent: true,
        button: 'I Consent',
        blocks: [{ paragraphs: ['Describe the study, what taking part involves, and how the data are used.'] }],
      },
      {
        id: 'done',
        type: 'end',
        pathway: 'complete',
        title: 'Thank you',
        blocks: [{ paragraphs: ['Thank you for taking part.'] }],
      },
    ],
  };
}

/** A new section for a condition's list: an id not yet in it, words to replace, 30 seconds. */
export function newSection(list: readonly unknown[]): StaticSection {
  const ids = new Set(list.map((s) => (typeof s === 'object' && s !== null ? (s as { id?: unknown }).id : undefined)));
  let n = list.length + 1;
  while (ids.has(`section-${n}`)) n += 1;
  return {
    id: `section-${n}`,
    title: `Section ${n}`,
    minSeconds: 30,
    blocks: [{ paragraphs: ['Write the text of this section here.'] }],
  };
}

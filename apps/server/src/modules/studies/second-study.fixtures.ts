import { studyDefinition, type BuiltInStudyDefinition, type StudyDefinition } from '@studychat/contracts';

// The second study the tests run (studies, exports): its own answer keys, pre-survey and section counts.

/** A second study: another topic, three sections and one per condition, other timers, wording and questions. */
export function secondStudy(): BuiltInStudyDefinition {
  const study = structuredClone(studyDefinition);
  study.id = 'sleep-study';
  study.title = 'Sleep study';
  study.entry.key = 'bedtime_plan';
  study.entry.values = { continue: 'unsure', exit: 'settled' };
  study.baseline.key = 'bedtime_intention';
  study.pages = { completion: { thanks: 'Thanks from the sleep study.', instructions: 'Paste the code.' } };
  study.baseline.question = 'How much do you intend to keep a regular bedtime for your child next week?';
  study.pre = {
    title: 'About your family',
    intro: 'Please answer these two questions.',
    questions: [
      {
        key: 'children',
        wording: 'How many children under 5 live with you?',
        type: 'choice',
        options: [
          { value: '1', label: 'One' },
          { value: '2+', label: 'Two or more' },
        ],
        required: true,
      },
      {
        key: 'sleep_worry',
        wording: 'How much do you worry about your child’s sleep?',
        type: 'scale',
        labels: { min: 'Not at all', mid: 'Somewhat', max: 'A great deal' },
        required: false,
      },
    ],
  };
  study.post.question = 'Now, how much do you intend to keep a regular bedtime for your child next week?';
  study.post.key = 'bedtime_intention_after';
  study.conditions.mmr = {
    topic: 'children’s sleep',
    sections: [1, 2, 3].map((n) => ({
      id: `sleep-${n}`,
      title: `Sleep part ${n}`,
      minSeconds: 5 * n,
      blocks: [{ paragraphs: [`Sleep fact number ${n}.`] }],
    })),
  };
  study.conditions.control = {
    topic: 'tooth brushing',
    sections: [{ id: 'teeth-1', title: 'Brushing', minSeconds: 7, blocks: [{ paragraphs: ['Brush twice a day.'] }] }],
  };
  study.chat.conditions.mmr.systemPrompt = 'SECRET SLEEP PROMPT: you talk about sleep.';
  study.chat.conditions.mmr.scripted.opening = 'Hello! Ask me anything about your child’s sleep.';
  study.chat.conditions.mmr.settings = {
    model: 'claude-haiku-4-5',
    temperature: 0.3,
    replyTokens: 300,
    thinkingBudget: 0,
  };
  study.chat.conditions.control.systemPrompt = 'SECRET TEETH PROMPT: you talk about teeth.';
  return study;
}

/**
 * A study of three conditions with ids of its own (docs/decisions/0061): the second study's sleep and teeth
 * conditions plus screen time, each with its own sections and prompt.
 */
export function threeConditionStudy(): StudyDefinition {
  const base = secondStudy();
  return {
    ...base,
    id: 'three-arm-study',
    title: 'Three-arm study',
    conditionList: [
      { id: 'sleep', label: 'Sleep information' },
      { id: 'teeth', label: 'Tooth brushing (control)' },
      { id: 'screens', label: 'Screen time' },
    ],
    conditions: {
      sleep: base.conditions.mmr,
      teeth: base.conditions.control,
      screens: {
        topic: 'screen time',
        sections: [1, 2].map((n) => ({
          id: `screens-${n}`,
          title: `Screens part ${n}`,
          minSeconds: 4,
          blocks: [{ paragraphs: [`Screen fact number ${n}.`] }],
        })),
      },
    },
    chat: {
      conditions: {
        sleep: base.chat.conditions.mmr,
        teeth: base.chat.conditions.control,
        screens: {
          systemPrompt: 'SECRET SCREENS PROMPT: you talk about screen time.',
          scripted: {
            opening: 'Hello! Ask me about screen time.',
            replies: ['Screens: an hour a day.'],
            closing: 'Bye.',
          },
        },
      },
      fallbackGreetings: { sleep: 'Hello (sleep).', teeth: 'Hello (teeth).', screens: 'Hello (screens).' },
    },
  };
}

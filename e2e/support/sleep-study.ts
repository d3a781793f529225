import type { BuiltInStudyDefinition } from '@studychat/contracts/web';

// A second study, entered in the admin study editor by the done-when test of issue 14: another topic,
// another number of sections per condition (2 and 3, not 4), other timers and other questions (its own answer
// keys and entry values, and a pre-study survey of its own: two choices and an optional scale). The first
// section of each condition is written in Markdown (docs/decisions/0052), the others in structured blocks.

/** What each condition's Markdown section must show rendered: bold words, a heading, a table cell, a link. */
export const SLEEP_MARKDOWN = {
  mmr: { bold: '9 to 12 hours', heading: 'A good night', cell: '9 to 12', link: 'sleep guidance' },
  control: { bold: 'twice a day', heading: 'A good routine', cell: 'a pea-sized amount', link: 'brushing guidance' },
} as const;

const opening = (topic: string) => `Hi! I can answer questions about ${topic}. What would you like to know?`;

export const SLEEP_STUDY: BuiltInStudyDefinition = {
  id: 'sleep-routine',
  title: 'Bedtime study',
  consent: {
    title: 'Bedtime Study Consent',
    blocks: [
      { heading: 'About this study', paragraphs: ['We study how parents plan their child’s bedtime routine.'] },
      { bullets: ['You are 18 or older.', 'You are a parent of a child under 10.'] },
    ],
    contact: 'Contact the bedtime research team through Prolific.',
  },
  entry: {
    title: 'Bedtime Reminder',
    scenario: ['Please imagine your child’s school starts again next week.', 'How do you feel about bedtimes?'],
    reminder: 'School starts on Monday: bedtime moves back to 7:30 pm.',
    questionsLabel: 'I have questions about bedtimes',
    confirmLabel: 'No questions about bedtimes',
    key: 'bedtime_plan',
    values: { continue: 'unsure', exit: 'settled' },
  },
  baseline: {
    question: 'How much do you intend to keep a regular bedtime for your child next week?',
    labels: { min: 'Not at all', mid: 'Unsure', max: 'Completely' },
    key: 'bedtime_intention',
  },
  pages: {
    staticIntro: {
      title: 'Bedtime reading',
      paragraphs: ['You will now read {sections} short pages about {topic}.', 'Then you can chat with an assistant.'],
    },
    completion: {
      thanks: 'Thank you for helping with the bedtime study.',
      instructions: 'Please paste this code into Prolific to finish the bedtime study.',
    },
  },
  pre: {
    title: 'About Your Family',
    intro: 'Please answer these questions about your family.',
    questions: [
      {
        key: 'school_age_children',
        wording: 'How many school-age children live with you?',
        type: 'choice',
        options: [
          { value: '1', label: 'One child' },
          { value: '2', label: 'Two children' },
          { value: '3+', label: 'Three or more' },
        ],
        required: true,
      },
      {
        key: 'bedtime_today',
        wording: 'At what time does your child usually go to bed?',
        type: 'choice',
        options: [
          { value: 'before-8', label: 'Before 8 pm' },
          { value: '8-9', label: 'Between 8 and 9 pm' },
          { value: 'after-9', label: 'After 9 pm' },
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
  },
  post: {
    title: 'Final Question',
    question: 'Now, how much do you intend to keep a regular bedtime for your child next week?',
    key: 'bedtime_intention_after',
  },
  conditionList: [
    { id: 'mmr', label: 'Sleep information' },
    { id: 'control', label: 'Tooth brushing (control)' },
  ],
  conditions: {
    mmr: {
      topic: 'children’s sleep',
      sections: [
        {
          id: 'sleep-why',
          title: 'Why sleep matters',
          minSeconds: 6,
          blocks: [
            {
              markdown: [
                'Children aged 6 to 12 need **9 to 12 hours** of sleep a night.',
                '',
                '# A good night',
                '',
                '- A regular bedtime, *even at weekends*.',
                '- A dark, quiet room.',
                '',
                '| Age | Hours a night |',
                '| --- | ---: |',
                '| 3 to 5 | 10 to 13 |',
                '| 6 to 12 | 9 to 12 |',
                '',
                'More in the [sleep guidance](https://example.org/sleep).',
              ].join('\n'),
            },
          ],
        },
        {
          id: 'sleep-how',
          title: 'A calm bedtime routine',
          minSeconds: 9,
          blocks: [{ bullets: ['Same time every night.', 'No screens in the last hour.'] }],
        },
      ],
    },
    control: {
      topic: 'tooth brushing',
      sections: [
        {
          id: 'teeth-why',
          title: 'Why brushing matters',
          minSeconds: 5,
          blocks: [
            {
              markdown: [
                'Brushing **twice a day** with fluoride toothpaste prevents decay.',
                '',
                '# A good routine',
                '',
                '1. After breakfast.',
                '2. Before bed, *the most important one*.',
                '',
                '| Age | Toothpaste |',
                '| --- | --- |',
                '| Under 3 | a smear |',
                '| 3 to 6 | a pea-sized amount |',
                '',
                'More in the [brushing guidance](https://example.org/teeth).',
              ].join('\n'),
            },
          ],
        },
        {
          id: 'teeth-how',
          title: 'How to brush',
          minSeconds: 7,
          blocks: [{ paragraphs: ['Two minutes, every surface, a pea-sized amount of toothpaste.'] }],
        },
        {
          id: 'teeth-dentist',
          title: 'Visiting the dentist',
          minSeconds: 8,
          blocks: [{ paragraphs: ['A check-up every six months keeps small problems small.'] }],
        },
      ],
    },
  },
  chat: {
    conditions: {
      mmr: {
        systemPrompt: 'You help parents with questions about children’s sleep. Keep answers short.',
        scripted: {
          opening: opening('children’s sleep'),
          replies: ['A regular bedtime helps children fall asleep faster.', 'Dim lights an hour before bed.'],
          closing: 'Thank you for chatting about sleep.',
        },
      },
      control: {
        systemPrompt: 'You help parents with questions about children’s tooth brushing. Keep answers short.',
        scripted: {
          opening: opening('tooth brushing'),
          replies: ['Brush for two minutes, twice a day.', 'Replace the toothbrush every three months.'],
          closing: 'Thank you for chatting about teeth.',
        },
      },
    },
    fallbackGreetings: {
      mmr: 'Hello! Ask me about your child’s sleep.',
      control: 'Hello! Ask me about brushing your child’s teeth.',
    },
    // A shorter chat than the spec's 3 rounds and 100 points (docs/decisions/0049).
    completion: { mmr: { rounds: 2, points: 40 }, control: { rounds: 2, points: 40 } },
  },
};

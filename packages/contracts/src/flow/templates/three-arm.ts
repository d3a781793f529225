import type { FlowDefinition } from '../types.js';
import { consentPage, TEMPLATE_DISCLAIMER } from './common.js';

// The HPV chatbot trial's shape: a chatbot arm, an arm that reads the official text with no chat, and a no-message
// arm; intention before (the strata) and after, an attention check that flags, two post questions.

export const threeArmTemplate: FlowDefinition = {
  format: 'flow',
  id: 'three-arm',
  title: 'Chatbot vs text vs no message (template)',
  texts: { welcome: 'A research study about health information', disclaimer: TEMPLATE_DISCLAIMER },
  conditions: [
    { id: 'chatbot', label: 'Chatbot' },
    { id: 'text', label: 'Official text, no chat' },
    { id: 'none', label: 'No message' },
  ],
  pathways: [
    { key: 'complete', label: 'whole study', description: 'Given after the last questions.' },
    { key: 'ineligible', label: 'not eligible', description: 'Given when the participant has no child aged 9-14.' },
  ],
  steps: [
    consentPage('We study how parents look for information about the HPV vaccine.', 10),
    {
      id: 'eligibility',
      type: 'questions',
      title: 'About you',
      button: 'Continue',
      questions: [
        {
          key: 'has_child',
          text: 'Are you the parent or guardian of a child aged 9 to 14?',
          required: true,
          type: 'single',
          options: [
            { value: 'yes', label: 'Yes' },
            { value: 'no', label: 'No' },
          ],
        },
      ],
    },
    { id: 'eligible', type: 'screen', when: { key: 'has_child', op: 'eq', value: 'no' }, pathway: 'ineligible' },
    {
      id: 'before',
      type: 'questions',
      title: 'Your plans',
      button: 'Continue',
      questions: [
        {
          key: 'intent_before',
          text: 'How likely is it that your child will get the HPV vaccine in the next 12 months?',
          required: true,
          type: 'likert',
          points: 7,
          labels: { min: 'Very unlikely', mid: 'Unsure', max: 'Very likely' },
        },
        {
          key: 'attention',
          text: 'To show that you are reading, please choose "Often".',
          required: true,
          type: 'single',
          options: [
            { value: 'never', label: 'Never' },
            { value: 'sometimes', label: 'Sometimes' },
            { value: 'often', label: 'Often' },
          ],
          check: { expected: 'often', onFail: { flag: true } },
        },
      ],
    },
    {
      id: 'assign',
      type: 'randomise',
      weights: { chatbot: 1, text: 1, none: 1 },
      strata: {
        key: 'intent_before',
        bins: [
          { label: 'low', min: 1, max: 3 },
          { label: 'middle', min: 4, max: 5 },
          { label: 'high', min: 6, max: 7 },
        ],
      },
    },
    {
      id: 'official_text',
      type: 'page',
      conditions: ['text'],
      title: 'About the HPV vaccine',
      minSeconds: 30,
      button: 'Continue',
      blocks: [
        {
          heading: 'What the HPV vaccine does',
          paragraphs: [
            'The HPV vaccine protects against the types of human papillomavirus that cause most cervical and several other cancers.',
            'It works best when given at ages 11 to 12, before any exposure to the virus. Two doses are given 6 to 12 months apart.',
          ],
        },
        {
          heading: 'Safety',
          paragraphs: [
            'The vaccine has been studied in millions of people. The most common side effects are a sore arm, a headache or feeling faint.',
          ],
        },
      ],
    },
    {
      id: 'conversation',
      type: 'chat',
      title: 'Questions about the HPV vaccine',
      intro: 'Ask the assistant anything about the HPV vaccine.',
      arms: {
        chatbot: {
          systemPrompt:
            'You answer a parent’s questions about the HPV vaccine accurately and briefly, following current public health guidance. The parent rated how likely their child is to get the vaccine at {{intent_before}} out of 7. Do not give individual medical advice; suggest talking to their child’s doctor for personal questions.',
          fallbackGreeting: 'Hello! What would you like to know about the HPV vaccine?',
          completion: { rounds: 2, points: 0 },
          scripted: {
            opening: 'Hello! What would you like to know about the HPV vaccine?',
            replies: [
              'The HPV vaccine protects against the virus types that cause most cervical cancers.',
              'It is given as two doses at ages 11 to 12.',
            ],
            closing: 'Thank you for your questions.',
          },
        },
      },
    },
    {
      id: 'after',
      type: 'questions',
      title: 'Last questions',
      button: 'Finish',
      questions: [
        {
          key: 'intent_after',
          text: 'How likely is it now that your child will get the HPV vaccine in the next 12 months?',
          required: true,
          type: 'likert',
          points: 7,
          labels: { min: 'Very unlikely', mid: 'Unsure', max: 'Very likely' },
        },
        {
          key: 'trust',
          text: 'How much do you trust the information you received in this study?',
          required: true,
          type: 'likert',
          points: 5,
          labels: ['Not at all', 'A little', 'Somewhat', 'Mostly', 'Completely'],
        },
        {
          key: 'comments',
          text: 'Anything else you would like to tell us?',
          required: false,
          type: 'text',
          minChars: 0,
          maxChars: 1000,
          multiline: true,
        },
      ],
    },
    {
      id: 'done',
      type: 'end',
      pathway: 'complete',
      title: 'Thank you!',
      blocks: [{ paragraphs: ['Your answers are recorded. Your completion code is below.'] }],
    },
    {
      id: 'not_eligible',
      type: 'end',
      pathway: 'ineligible',
      title: 'Thank you for your interest',
      blocks: [
        {
          paragraphs: [
            'This study is for parents of children aged 9 to 14. Please return the study on Prolific with the code below.',
          ],
        },
      ],
    },
  ],
};

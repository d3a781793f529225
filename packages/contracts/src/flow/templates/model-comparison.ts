import type { ChatArm, FlowDefinition } from '../types.js';
import { consentPage, TEMPLATE_DISCLAIMER } from './common.js';

// A model comparison: the same prompt, opening and completion rule on two models (here two providers); the arms
// differ by their model only, so any difference in the outcomes is the model's.

const arm = (model: ChatArm['model']): ChatArm => ({
  model,
  systemPrompt:
    'You help a person think through a decision they are facing: "{{decision}}". Ask about what matters to them, lay out the options and their trade-offs, and do not decide for them. Be concise.',
  openingInstruction: 'Open by restating the decision and asking what matters most to them.',
  fallbackGreeting: 'Hello! Tell me more about the decision you are facing.',
  completion: { rounds: 3, points: 0 },
  scripted: {
    opening: 'Hello! Tell me more about the decision you are facing. What matters most to you?',
    replies: ['Here are the options as I understand them, with their trade-offs.', 'What would you regret more?'],
    closing: 'Thank you. I hope this helped you think it through.',
  },
});

export const modelComparisonTemplate: FlowDefinition = {
  format: 'flow',
  id: 'model-comparison',
  title: 'Same prompt, two models (template)',
  texts: { welcome: 'A research study about decisions and AI assistants', disclaimer: TEMPLATE_DISCLAIMER },
  conditions: [
    { id: 'model_a', label: 'Claude Sonnet 4.5 (Anthropic)' },
    { id: 'model_b', label: 'GPT-5 mini (OpenAI)' },
  ],
  pathways: [{ key: 'complete', label: 'whole study', description: 'Given after the last questions.' }],
  steps: [
    consentPage('We study how people use AI assistants when they face a decision.', 10),
    {
      id: 'decision_question',
      type: 'questions',
      title: 'A decision you face',
      button: 'Continue',
      questions: [
        {
          key: 'decision',
          text: 'Describe a decision you are facing in the next few months, in one or two sentences.',
          required: true,
          type: 'text',
          minChars: 15,
          maxChars: 600,
          multiline: true,
        },
        {
          key: 'certainty_before',
          text: 'How sure are you about what you will decide?',
          required: true,
          type: 'slider',
          min: 0,
          max: 100,
          step: 5,
          anchors: { min: 'Not sure at all', max: 'Completely sure' },
        },
      ],
    },
    { id: 'assign', type: 'randomise', weights: { model_a: 1, model_b: 1 } },
    {
      id: 'conversation',
      type: 'chat',
      title: 'Think it through with an AI assistant',
      intro: 'Talk with the assistant about your decision for at least three rounds.',
      arms: {
        model_a: arm({ provider: 'anthropic', model: 'claude-sonnet-4-5', temperature: 0.7 }),
        model_b: arm({ provider: 'openai', model: 'gpt-5-mini', temperature: 0.7 }),
      },
    },
    {
      id: 'after',
      type: 'questions',
      title: 'Afterwards',
      button: 'Finish',
      questions: [
        {
          key: 'certainty_after',
          text: 'How sure are you now about what you will decide?',
          required: true,
          type: 'slider',
          min: 0,
          max: 100,
          step: 5,
          anchors: { min: 'Not sure at all', max: 'Completely sure' },
        },
        {
          key: 'helpful',
          text: 'How helpful was the assistant?',
          required: true,
          type: 'likert',
          points: 5,
          labels: { min: 'Not at all', max: 'Very' },
        },
        {
          key: 'would_use',
          text: 'Would you use such an assistant for a decision like this again?',
          required: true,
          type: 'multiple',
          options: [
            { value: 'yes_same', label: 'Yes, for a decision like this' },
            { value: 'yes_other', label: 'Yes, for other decisions' },
            { value: 'no', label: 'No' },
          ],
          minChoices: 1,
        },
        {
          key: 'age',
          text: 'How old are you?',
          required: true,
          type: 'number',
          min: 18,
          max: 110,
          integer: true,
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
  ],
};

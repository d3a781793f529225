import type { FlowDefinition } from '../types.js';
import { consentPage, TEMPLATE_DISCLAIMER } from './common.js';

// Costello, Pennycook and Rand (2024)'s design: the participant writes a belief in their own words, the AI
// summarises it and the participant confirms or corrects the summary, rates their confidence 0-100, then chats
// three rounds with an AI whose prompt carries their belief and rating (or, in the control arm, about an
// unrelated topic), and rates their confidence again.

export const beliefChangeTemplate: FlowDefinition = {
  format: 'flow',
  id: 'belief-change',
  title: 'Belief change through dialogue (template)',
  texts: { welcome: 'A research study about beliefs and conversations', disclaimer: TEMPLATE_DISCLAIMER },
  conditions: [
    { id: 'treatment', label: 'Conversation about the belief' },
    { id: 'control', label: 'Conversation about an unrelated topic' },
  ],
  pathways: [{ key: 'complete', label: 'whole study', description: 'Given after the last rating.' }],
  steps: [
    consentPage('We study how people think about their beliefs and how conversations change them.', 15),
    {
      id: 'belief_question',
      type: 'questions',
      title: 'Your belief',
      intro: 'Think of a belief about a public question that you hold and that some people disagree with.',
      button: 'Continue',
      questions: [
        {
          key: 'belief',
          text: 'Describe the belief in your own words, and why you hold it.',
          help: 'A few sentences are enough.',
          required: true,
          type: 'text',
          minChars: 20,
          maxChars: 1500,
          multiline: true,
        },
      ],
    },
    {
      id: 'belief_summary',
      type: 'ai_text',
      title: 'Your belief in one sentence',
      instructions:
        'The AI has summarised your belief in one sentence. If it is right, confirm it; if not, correct it so it says what you believe.',
      prompt:
        'Summarise the belief below in one neutral sentence, in the first person, without judging it. Answer with the sentence only.\n\nBelief: {{belief}}',
      allowCorrection: true,
      maxChars: 500,
      confirmLabel: 'This is my belief',
      scripted: 'I believe what I described above, for the reasons I gave.',
    },
    {
      id: 'rating_before',
      type: 'questions',
      title: 'How confident are you?',
      button: 'Continue',
      questions: [
        {
          key: 'confidence_before',
          text: 'How confident are you that this is true: "{{belief_summary}}"?',
          required: true,
          type: 'slider',
          min: 0,
          max: 100,
          step: 1,
          anchors: { min: 'Definitely false', mid: 'Uncertain', max: 'Definitely true' },
        },
      ],
    },
    { id: 'assign', type: 'randomise', weights: { treatment: 1, control: 1 } },
    {
      id: 'conversation',
      type: 'chat',
      title: 'A conversation with an AI',
      intro: 'You will now talk with an AI for three rounds. Please answer in full sentences.',
      arms: {
        treatment: {
          systemPrompt:
            'You are talking with a person who holds this belief: "{{belief_summary}}". They rated their confidence in it {{confidence_before}} out of 100. In three rounds, discuss the belief with them respectfully, ask what convinces them, and present the strongest accurate evidence that bears on it. Do not insult or lecture; be concise.',
          openingInstruction: 'Open by restating their belief in your words and asking what most convinces them of it.',
          fallbackGreeting: 'Hello! I would like to hear more about the belief you described. What convinces you most?',
          completion: { rounds: 3, points: 0 },
          scripted: {
            opening: 'Hello! You said you believe what you described. What convinces you most?',
            replies: [
              'That is a thoughtful point. Here is some evidence that bears on it.',
              'Thank you. What would change your mind?',
            ],
            closing: 'Thank you for the conversation.',
          },
        },
        control: {
          systemPrompt:
            'You are talking with a person about their experience of their local health services: what works well and what could be better. Keep to that topic for three rounds; be friendly and concise.',
          openingInstruction: 'Open by asking about their last visit to a doctor or pharmacy.',
          fallbackGreeting: 'Hello! I would like to hear about your experience of your local health services.',
          completion: { rounds: 3, points: 0 },
          scripted: {
            opening: 'Hello! How was your last visit to a doctor or pharmacy?',
            replies: ['Thank you for sharing that.', 'What would make it easier?'],
            closing: 'Thank you for the conversation.',
          },
        },
      },
    },
    {
      id: 'rating_after',
      type: 'questions',
      title: 'How confident are you now?',
      button: 'Finish',
      questions: [
        {
          key: 'confidence_after',
          text: 'How confident are you now that this is true: "{{belief_summary}}"?',
          required: true,
          type: 'slider',
          min: 0,
          max: 100,
          step: 1,
          anchors: { min: 'Definitely false', mid: 'Uncertain', max: 'Definitely true' },
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

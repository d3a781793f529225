import type { PageStep } from '../types.js';

// What the templates share: a consent page to adapt, and the disclaimer every page of a template shows.

export const TEMPLATE_DISCLAIMER =
  'This study is for research purposes only. Nothing in it is professional advice. You may stop at any time.';

/** A consent page to adapt: purpose, what taking part involves, voluntariness, data, contact. */
export function consentPage(purpose: string, minutes: number): PageStep {
  return {
    id: 'consent',
    type: 'page',
    title: 'Informed consent',
    consent: true,
    button: 'I Consent',
    blocks: [
      { heading: 'Purpose of the study', paragraphs: [purpose] },
      {
        heading: 'What taking part involves',
        paragraphs: [
          `The study takes about ${minutes} minutes. You will answer a few questions and may be asked to read a short text or to chat with an AI assistant. You are paid through Prolific.`,
        ],
      },
      {
        heading: 'Your choice and your data',
        bullets: [
          'Taking part is voluntary: you may stop at any time by closing the page.',
          'Your answers are stored without your name and used for research only.',
          'You must be 18 or older to take part.',
        ],
      },
      { heading: 'Contact', paragraphs: ['Questions about the study: write to the research team through Prolific.'] },
    ],
  };
}

import type { StudyDefinition } from './types.js';

// PLACEHOLDER until the participant-journey work writes the full study text.
export const mmrStudyContent: Omit<StudyDefinition, 'chat'> = {
  id: 'mmr-well-visit',
  title: 'Well-visit study',
  consent: { title: 'Informed Consent', blocks: [], contact: '' },
  entry: {
    title: 'Appointment Reminder',
    scenario: [],
    questionsLabel: 'I have questions or concerns about MMR',
    confirmLabel: 'No concerns about the MMR vaccine',
  },
  baseline: { question: '', labels: { min: 'Definitely not', mid: 'Uncertain', max: 'Definitely yes' } },
  post: { title: 'Last Step', question: '' },
  conditions: {
    mmr: { topic: 'the MMR vaccine', sections: [] },
    control: { topic: 'rear-facing car seats', sections: [] },
  },
};

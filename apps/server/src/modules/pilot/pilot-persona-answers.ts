import { pick, type AnswerValue, type FlowQuestionView, type PilotPersona } from '@studychat/contracts';

// How a scripted persona answers (issue 35, docs/decisions/0085): in character and deterministic for its seed.
// A sceptic answers low on scales, a favourable persona high; a verbose one writes long messages; times are a
// person's plausible reading and typing on top of what the server enforces.

type Random = () => number;

/** Where on a scale a stance answers, as a fraction of the range (low, middle or high third). */
function stanceFraction(persona: PilotPersona, random: Random): number {
  const r = random();
  switch (persona.stance) {
    case 'sceptic':
      return r * 0.34;
    case 'hesitant':
      return 0.33 + r * 0.34;
    case 'favourable':
      // Often at the very top: a scale's ceiling (and any exit on it) is what a pilot must see reached.
      return r < 0.4 ? 1 : 0.66 + r * 0.34;
  }
}

/** A point on a 1..points scale in character. */
export function scalePoint(persona: PilotPersona, random: Random, points: number): number {
  return 1 + Math.round(stanceFraction(persona, random) * (points - 1));
}

const SENTENCES: Record<PilotPersona['stance'], readonly string[]> = {
  sceptic: [
    'I am honestly not convinced by this.',
    'Who paid for the studies behind that claim?',
    'Why should I trust that over what people I know have told me?',
    'That sounds like what someone selling it would say.',
    'What are the risks you are not mentioning?',
    'I have read stories that say the opposite.',
  ],
  hesitant: [
    'I am not sure what to think about this yet.',
    'What are the risks, honestly?',
    'How sure can anyone be about that?',
    'Could you explain that part again in simpler words?',
    'What do most people in my situation decide?',
    'I would like to understand the evidence a little better.',
  ],
  favourable: [
    'That makes sense to me.',
    'What else should I know before deciding?',
    'Thanks, that is helpful.',
    'How can I explain this to a friend who is worried?',
    'Is there anything I should watch out for afterwards?',
    'I think I mostly agree with that.',
  ],
};

const SENTENCES_PER_MESSAGE: Record<PilotPersona['verbosity'], number> = { terse: 1, average: 2, verbose: 4 };

/** A chat message in character: its stance's sentences, as many as its verbosity writes. */
export function chatMessage(persona: PilotPersona, random: Random): string {
  const count = SENTENCES_PER_MESSAGE[persona.verbosity];
  return Array.from({ length: count }, () => pick(SENTENCES[persona.stance], random)).join(' ');
}

/** A free-text answer of at least `minChars` (and at most `maxChars`) in character. */
export function textAnswer(persona: PilotPersona, random: Random, minChars: number, maxChars: number): string {
  let text = chatMessage(persona, random);
  while (text.length < Math.max(minChars, 1)) text = `${text} ${chatMessage(persona, random)}`;
  return text.slice(0, maxChars).trim();
}

/** An answer to a flow's question in character (always a valid one). */
export function flowAnswer(persona: PilotPersona, random: Random, q: FlowQuestionView): AnswerValue {
  switch (q.type) {
    case 'single': {
      const own = q.options.find((o) => o.value === persona.ageGroup || o.label === persona.ageGroup);
      return (own ?? pick(q.options, random)).value;
    }
    case 'multiple': {
      const least = Math.max(1, q.minChoices ?? 1);
      const most = Math.max(least, q.maxChoices ?? q.options.length);
      const chosen = q.options.filter(() => random() < 0.4).map((o) => o.value);
      for (const o of q.options) if (chosen.length < least && !chosen.includes(o.value)) chosen.push(o.value);
      return chosen.slice(0, most);
    }
    case 'likert':
      return scalePoint(persona, random, q.points);
    case 'slider': {
      const steps = Math.round((q.max - q.min) / q.step);
      return q.min + Math.round(stanceFraction(persona, random) * steps) * q.step;
    }
    case 'number': {
      const low = q.min ?? 18;
      const high = q.max ?? low + 60;
      const age = Number.parseInt(persona.ageGroup, 10);
      const value = /age/i.test(q.key) && Number.isFinite(age) ? age + Math.floor(random() * 7) : low;
      return Math.max(low, Math.min(high, q.integer ? Math.round(value) : value));
    }
    case 'text':
      return textAnswer(persona, random, q.minChars, q.maxChars);
  }
}

/** Seconds a persona takes to read something beyond what the server enforces. */
export function readingSeconds(persona: PilotPersona, random: Random): number {
  return Math.round(5 + random() * (persona.verbosity === 'verbose' ? 25 : 15));
}

/** Seconds a persona takes over one chat round: reading the reply and typing the message. */
export function roundSeconds(persona: PilotPersona, random: Random, message: string): number {
  return Math.round(10 + random() * 10 + message.length / 3);
}

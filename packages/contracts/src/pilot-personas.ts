// Simulated participants of a pilot run (issue 35, docs/decisions/0085): personas and their sampling. Zod-free and
// pure, so the experiment page samples the same list the server would and the researcher can edit it first.

export const PILOT_AGE_GROUPS = ['18-24', '25-34', '35-44', '45-54', '55-64', '65+'] as const;
/** Where a persona stands on the study's question: low, middling or high answers on intention scales. */
export const PILOT_STANCES = ['sceptic', 'hesitant', 'favourable'] as const;
/** How much a persona writes: the length of its chat messages and text answers. */
export const PILOT_VERBOSITIES = ['terse', 'average', 'verbose'] as const;
/** Most simulated participants in one pilot run. */
export const PILOT_PARTICIPANTS_MAX = 50;

export type PilotAgeGroup = (typeof PILOT_AGE_GROUPS)[number];
export type PilotStance = (typeof PILOT_STANCES)[number];
export type PilotVerbosity = (typeof PILOT_VERBOSITIES)[number];

export interface PilotPersona {
  ageGroup: PilotAgeGroup;
  stance: PilotStance;
  verbosity: PilotVerbosity;
  /** Chance (0-1) that the persona leaves the study at some step instead of finishing it. */
  leaveTendency: number;
}

/** A small seeded generator (mulberry32): the same seed gives the same personas and the same answers. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function pick<T>(items: readonly T[], random: () => number): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/**
 * `n` personas drawn from `seed`: every stance and verbosity in turn (so a small run still meets each), the age
 * group at random, and one persona in five inclined to leave (tendency 0.6-0.9; the others 0-0.1).
 */
export function samplePersonas(n: number, seed: number): PilotPersona[] {
  const random = seededRandom(seed);
  const count = Math.max(0, Math.min(PILOT_PARTICIPANTS_MAX, Math.floor(n)));
  return Array.from({ length: count }, (_, i) => {
    const leaver = i % 5 === 4;
    const tendency = leaver ? 0.6 + random() * 0.3 : random() * 0.1;
    return {
      ageGroup: pick(PILOT_AGE_GROUPS, random),
      stance: PILOT_STANCES[i % PILOT_STANCES.length] ?? 'hesitant',
      verbosity: PILOT_VERBOSITIES[Math.floor(i / PILOT_STANCES.length) % PILOT_VERBOSITIES.length] ?? 'average',
      leaveTendency: Math.round(tendency * 100) / 100,
    };
  });
}

/** What simulated participants cannot tell (shown with every pilot report). */
export const PILOT_CAVEAT =
  'Simulated participants check that the study runs: every pathway can be reached, each chat can reach its rule, ' +
  'and what time and tokens it takes. They cannot tell you effect sizes or how many people will drop out: their ' +
  'answers follow scripts and show far too little variance, and they leave a conversation only when told to. ' +
  'Times are the pilot clock’s (the minimum the server enforces plus a scripted reading and typing time), not ' +
  'measured people.';

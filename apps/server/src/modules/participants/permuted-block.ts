import type { Condition, Stratum } from '@studychat/contracts';

/** Each block holds every condition of the study this many times (block size 4 for two conditions, 6 for three). */
export const PER_CONDITION_IN_BLOCK = 2;

/** The block size for a study's conditions (docs/decisions/0061). */
export function blockSize(conditions: readonly Condition[]): number {
  return conditions.length * PER_CONDITION_IN_BLOCK;
}

/**
 * One permuted block over the study's conditions: each one PER_CONDITION_IN_BLOCK times, shuffled with
 * Fisher-Yates drawing from `random`.
 */
export function permutedBlock(conditions: readonly Condition[], random: () => number): Condition[] {
  const block: Condition[] = conditions.flatMap((c) => Array.from({ length: PER_CONDITION_IN_BLOCK }, () => c));
  for (let i = block.length - 1; i > 0; i--) {
    // Clamp: a faulty source returning 1 must not index past the end.
    const j = Math.min(i, Math.floor(random() * (i + 1)));
    const a = block[i];
    const b = block[j];
    if (a === undefined || b === undefined) continue;
    block[i] = b;
    block[j] = a;
  }
  return block;
}

/** Baseline intention 1-6 to its randomisation stratum; null for anything else (7 is the ceiling pathway). */
export function stratumFor(intention: number): Stratum | null {
  if (intention === 1 || intention === 2) return '1-2';
  if (intention === 3 || intention === 4) return '3-4';
  if (intention === 5 || intention === 6) return '5-6';
  return null;
}

/**
 * One permuted block for weighted conditions (a flow's randomise step, issue 30): each condition `weight` times,
 * shuffled with Fisher-Yates drawing from `random`. Equal weights of 2 give the built-in study's blocks.
 */
export function weightedBlock(weights: Readonly<Record<string, number>>, random: () => number): Condition[] {
  const block = Object.entries(weights).flatMap(([c, w]) => Array.from({ length: w }, () => c));
  for (let i = block.length - 1; i > 0; i--) {
    const j = Math.min(i, Math.floor(random() * (i + 1)));
    const a = block[i];
    const b = block[j];
    if (a === undefined || b === undefined) continue;
    block[i] = b;
    block[j] = a;
  }
  return block;
}

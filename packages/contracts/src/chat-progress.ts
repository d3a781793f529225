import { CHAT_POINTS_TARGET, CHAT_ROUNDS_TARGET } from './constants.js';

export interface ChatProgressValues {
  rounds: number;
  chars: number;
  points: number;
  complete: boolean;
}

/** Points = rounds x 10 + trimmed characters sent x 0.5 (spec section 9). */
export function chatPoints(rounds: number, chars: number): number {
  return rounds * 10 + chars * 0.5;
}

/** Complete needs points at least 100 and rounds at least 3. */
export function isChatComplete(points: number, rounds: number): boolean {
  return points >= CHAT_POINTS_TARGET && rounds >= CHAT_ROUNDS_TARGET;
}

/** Progress after the given participant messages (each counts as one round; characters are trimmed). */
export function chatProgress(userMessages: readonly string[]): ChatProgressValues {
  const rounds = userMessages.length;
  const chars = userMessages.reduce((sum, m) => sum + m.trim().length, 0);
  const points = chatPoints(rounds, chars);
  return { rounds, chars, points, complete: isChatComplete(points, rounds) };
}

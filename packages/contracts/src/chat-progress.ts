import type { Condition } from './common.js';
import { CHAT_POINTS_TARGET, CHAT_ROUNDS_TARGET } from './constants.js';

export interface ChatProgressValues {
  rounds: number;
  chars: number;
  points: number;
  complete: boolean;
}

/** When a chat is complete: at least this many rounds and points (docs/decisions/0049). */
export interface ChatRule {
  rounds: number;
  points: number;
}

/** The spec's rule (section 9): 3 rounds and 100 points. */
export const SPEC_CHAT_RULE: ChatRule = { rounds: CHAT_ROUNDS_TARGET, points: CHAT_POINTS_TARGET };

/** A study's own rule per condition, each part optional (the study definition's `chat.completion`). */
export type ChatCompletionRules = Record<Condition, Partial<ChatRule>>;

/** The condition's rule in a study: each part it leaves out (or no condition yet) is the spec's. */
export function chatRuleFor(rules: ChatCompletionRules | undefined, condition: Condition | null): ChatRule {
  const own = condition ? rules?.[condition] : undefined;
  return { rounds: own?.rounds ?? SPEC_CHAT_RULE.rounds, points: own?.points ?? SPEC_CHAT_RULE.points };
}

/** Points = rounds x 10 + trimmed characters sent x 0.5 (spec section 9). */
export function chatPoints(rounds: number, chars: number): number {
  return rounds * 10 + chars * 0.5;
}

/** Complete needs points and rounds at least the rule's (the spec's: 100 and 3). */
export function isChatComplete(points: number, rounds: number, rule: ChatRule = SPEC_CHAT_RULE): boolean {
  return points >= rule.points && rounds >= rule.rounds;
}

/** Progress after the given participant messages (each counts as one round; characters are trimmed). */
export function chatProgress(userMessages: readonly string[], rule: ChatRule = SPEC_CHAT_RULE): ChatProgressValues {
  const rounds = userMessages.length;
  const chars = userMessages.reduce((sum, m) => sum + m.trim().length, 0);
  const points = chatPoints(rounds, chars);
  return { rounds, chars, points, complete: isChatComplete(points, rounds, rule) };
}

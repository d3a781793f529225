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

/** A flow chat arm's time rule (issue 30): at least, and at most, so many minutes from the chat's start. */
export interface ChatTimeRule {
  minMinutes?: number | undefined;
  maxMinutes?: number | undefined;
}

/**
 * Whether a chat is done by its rule and its time: complete by rounds and points once its least minutes have
 * passed, or, whatever the rounds, once its most minutes have. `elapsedMs` is from the chat's start.
 */
export function chatDoneInTime(complete: boolean, elapsedMs: number, time: ChatTimeRule): boolean {
  if (time.maxMinutes !== undefined && elapsedMs >= time.maxMinutes * 60_000) return true;
  return complete && (time.minMinutes === undefined || elapsedMs >= time.minMinutes * 60_000);
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

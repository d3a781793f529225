import type { FlowStepView } from '@studychat/contracts/web';
import { useEffect, useState } from 'react';

// A flow chat arm's least and most minutes (issue 30) on the participant's screen. The server decides when the chat
// step is done (its clock, from the chat's start); the page counts down from the seconds left the server sent, so
// Proceed is offered when the server will accept it.

type ChatView = Extract<FlowStepView, { type: 'chat' }>;

/** When (page clock, ms) each limit passes; null: no such limit, or the chat has not started yet. */
export interface ArmDeadlines {
  min: number | null;
  max: number | null;
}

/**
 * The deadlines from the view received at `receivedAt`, for a chat that started at `startedAt` on this page (a chat
 * the server already had started counts from the view). Before the chat starts there is nothing to count.
 */
export function armDeadlines(step: ChatView, receivedAt: number, startedAt: number | null): ArmDeadlines {
  const { minMinutes, maxMinutes } = step.completion;
  const fromView = (left: number | null) => (left === null ? null : receivedAt + left * 1000);
  const fromStart = (minutes: number | undefined) =>
    minutes === undefined || startedAt === null ? null : startedAt + minutes * 60_000;
  if (step.threadId !== null) return { min: fromView(step.minSecondsLeft), max: fromView(step.maxSecondsLeft) };
  return { min: fromStart(minMinutes), max: fromStart(maxMinutes) };
}

export interface ArmTime {
  /** The least minutes have passed (true when the arm has none). */
  minPassed: boolean;
  /** The most minutes have passed (false when the arm has none). */
  maxPassed: boolean;
  /** Whole minutes left before the least minutes pass, rounded up; 0 once passed. */
  minutesToMin: number;
}

/** Where the clock stands against the deadlines; a limit of an arm without that limit never holds anything up. */
export function armTime(step: ChatView, deadlines: ArmDeadlines, now: number): ArmTime {
  const hasMin = step.completion.minMinutes !== undefined;
  const minPassed = !hasMin || (deadlines.min !== null && now >= deadlines.min);
  const maxPassed = deadlines.max !== null && now >= deadlines.max;
  let minutesToMin = 0;
  if (!minPassed) {
    // Not started yet: the whole least minutes are ahead.
    minutesToMin =
      deadlines.min === null ? (step.completion.minMinutes ?? 0) : Math.ceil((deadlines.min - now) / 60_000);
  }
  return { minPassed, maxPassed, minutesToMin };
}

/** The arm's time on this page, re-rendered when a deadline passes (and each minute while one is pending). */
export function useArmTime(step: ChatView, chatStarted: boolean): ArmTime {
  const [receivedAt] = useState(() => Date.now());
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!chatStarted || startedAt !== null) return;
    // The page's clock is read again with the start, so the minutes left count from it.
    const at = Date.now();
    setStartedAt(at);
    setNow(at);
  }, [chatStarted, startedAt]);
  const deadlines = armDeadlines(step, receivedAt, startedAt);
  const next = [deadlines.min, deadlines.max].filter((d): d is number => d !== null && d > now);
  const wait = next.length === 0 ? null : Math.min(Math.min(...next) - now, 60_000);
  useEffect(() => {
    if (wait === null) return;
    // A second late, so the server (whose clock the seconds were counted on) agrees when Proceed is pressed.
    const timer = setTimeout(() => setNow(Date.now()), wait + 1000);
    return () => clearTimeout(timer);
  }, [wait, now]);
  return armTime(step, deadlines, now);
}

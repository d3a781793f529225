import { useLayoutEffect, useRef, useState } from 'react';
import { secondsLeft, tick, type SectionClock } from './section-clock';

const TICK_MS = 250;

export interface VisibleCountdown {
  /** Whole seconds left, or null before the countdown has a start. */
  seconds: number | null;
  /** The clock now (for reporting visible and hidden time). */
  read: () => SectionClock | null;
  /** Makes sure at least `ms` are left (the server said the section is not done yet). */
  extendTo: (ms: number) => void;
}

/**
 * Runs `start` down while the page is visible; hidden time is only counted as hidden. Each change is handed
 * to `save` (a cache, so a reload on this device keeps the visible-time rule). A new `start` restarts it.
 */
export function useVisibleCountdown(start: SectionClock | null, save: (clock: SectionClock) => void): VisibleCountdown {
  const clock = useRef<SectionClock | null>(null);
  const [seconds, setSeconds] = useState<number | null>(null);

  // A layout effect: the countdown runs from the moment its start is on screen, not a frame later.
  useLayoutEffect(() => {
    clock.current = start;
    setSeconds(start ? secondsLeft(start) : null);
    if (!start) return;
    let last = Date.now();
    let visible = document.visibilityState === 'visible';
    const account = () => {
      const now = Date.now();
      if (!clock.current) return;
      clock.current = tick(clock.current, now - last, visible);
      last = now;
      save(clock.current);
      setSeconds(secondsLeft(clock.current));
    };
    // Time up to the change is counted in the state before it.
    const onVisibility = () => {
      account();
      visible = document.visibilityState === 'visible';
    };
    const timer = window.setInterval(account, TICK_MS);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      account();
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [start, save]);

  return {
    seconds,
    read: () => clock.current,
    extendTo: (ms) => {
      if (!clock.current) return;
      clock.current = { ...clock.current, remainingMs: Math.max(clock.current.remainingMs, ms) };
      setSeconds(secondsLeft(clock.current));
    },
  };
}

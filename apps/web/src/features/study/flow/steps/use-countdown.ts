import { useEffect, useState } from 'react';

/**
 * Seconds left on a minimum time (a page's, a section's): the server's figure when it came, counted down here;
 * `restart` (a section, a refusal) starts it again from `seconds`.
 */
export function useCountdown(seconds: number, restart: unknown = null): number {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    setLeft(seconds);
    if (seconds <= 0) return;
    const started = Date.now();
    const timer = window.setInterval(() => {
      const next = Math.max(0, seconds - Math.floor((Date.now() - started) / 1000));
      setLeft(next);
      if (next === 0) window.clearInterval(timer);
    }, 250);
    return () => window.clearInterval(timer);
  }, [seconds, restart]);
  return left;
}

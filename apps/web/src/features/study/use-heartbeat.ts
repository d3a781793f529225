import { endpoints } from '@studychat/contracts/web';
import { useEffect } from 'react';
import { api } from '../../lib/api';

/** A heartbeat this often while the study page is visible (the monitor's last seen; docs/decisions/0030). */
export const HEARTBEAT_MS = 60_000;

/** Tells the server the participant is still here while the page is visible; failures are ignored. */
export function useHeartbeat(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const beat = () => {
      if (document.visibilityState !== 'visible') return;
      api(endpoints.monitor.heartbeat, {}).catch(() => undefined);
    };
    const timer = setInterval(beat, HEARTBEAT_MS);
    // Coming back to the tab counts at once.
    document.addEventListener('visibilitychange', beat);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', beat);
    };
  }, [enabled]);
}

import { useEffect } from 'react';

export const DISCARD_QUESTION = 'Discard the unsaved changes to this study version?';

/**
 * While there are unsaved changes: the browser asks before a reload or closing the tab, and a click on a
 * link in the page asks before leaving (cancel keeps the page). The app's router is not a data router, so
 * the browser's Back button is not covered.
 */
export function useUnsavedGuard(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return;
    const beforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    const click = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!link || event.defaultPrevented) return;
      // Runs before the router's own handler (capture), which leaves a prevented click alone.
      if (!window.confirm(DISCARD_QUESTION)) event.preventDefault();
    };
    window.addEventListener('beforeunload', beforeUnload);
    document.addEventListener('click', click, true);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      document.removeEventListener('click', click, true);
    };
  }, [dirty]);
}

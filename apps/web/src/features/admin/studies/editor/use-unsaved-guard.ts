import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from '../../../../lib/router';

export const DISCARD_QUESTION = 'Discard the unsaved changes to this study version?';

/** Marks the history entry the guard pushes on top of the editor's own (see `useUnsavedGuard`). */
const TRAP = 'studyEditorUnsaved';

const onTrap = (): boolean => (window.history.state as Record<string, unknown> | null)?.[TRAP] === true;

/** For a navigation away once Leave was chosen: it replaces the copy of the editor's entry, if that is where we are. */
export const leavingOptions = () => ({ replace: onTrap() });

/** A click the browser would follow as a plain navigation in this tab, to a page of this app. */
function appLinkOf(event: MouseEvent): URL | null {
  if (event.defaultPrevented || event.button !== 0) return null;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(link instanceof HTMLAnchorElement) || link.hasAttribute('download')) return null;
  if (link.target && link.target !== '_self') return null;
  const url = new URL(link.href, window.location.href);
  // Another site is a page unload, which `beforeunload` covers.
  return url.origin === window.location.origin ? url : null;
}

export interface UnsavedGuard {
  /** True while the leave dialog should show. */
  asking: boolean;
  /** Runs `leave` at once when nothing is unsaved, else after the dialog's Leave. */
  ask: (leave: () => void) => void;
  leave: () => void;
  stay: () => void;
}

/**
 * While there are unsaved changes, leaving asks first, in the app's own dialog (`LeaveDialog`): a click on a
 * link, the browser's Back button, and whatever the page routes through `ask` (Clone). A reload or closing the
 * tab gets the browser's own question (`beforeunload`).
 *
 * The app keeps React Router's declarative `BrowserRouter` (the data router's `useBlocker` would put the
 * participant pages over their 100 KB budget, docs/decisions/0062), so Back is held the way the participant
 * pages hold it (`use-back-trap.ts`): a copy of the editor's history entry is pushed on top of it, so Back lands
 * on the editor's own entry, which the router sees as the same location (the page and its draft stay), and the
 * dialog asks. Stay pushes the copy again; Leave steps back past both. Once the changes are saved the copy is
 * stepped off again, so the history holds no trace of the guard.
 */
export function useUnsavedGuard(dirty: boolean): UnsavedGuard {
  const navigate = useNavigate();
  const [pending, setPending] = useState<{ run: () => void } | null>(null);

  const ask = useCallback((leave: () => void) => (dirty ? setPending({ run: leave }) : leave()), [dirty]);
  const stay = useCallback(() => setPending(null), []);
  const leave = useCallback(() => {
    setPending(null);
    pending?.run();
  }, [pending]);

  useEffect(() => {
    if (!dirty) return;
    let released = false;
    const trap = () => window.history.pushState({ ...window.history.state, [TRAP]: true }, '', window.location.href);
    if (!onTrap()) trap();
    const beforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    const click = (event: MouseEvent) => {
      const url = appLinkOf(event);
      if (!url) return;
      // Runs before the router's own handler (capture), which leaves a prevented click alone.
      event.preventDefault();
      // Replaces the copy of the editor's entry, so Back from the new page returns to the editor once.
      setPending({ run: () => void navigate(url.pathname + url.search + url.hash, leavingOptions()) });
    };
    const popState = () => {
      // Back from the copy: the editor's own entry, the same location for the router. Forward or a jump
      // further than one entry has already left (the router followed it), and this listener is gone then.
      if (released || onTrap()) return;
      trap();
      setPending({
        run: () => {
          released = true;
          window.history.go(-2);
        },
      });
    };
    window.addEventListener('beforeunload', beforeUnload);
    window.addEventListener('popstate', popState);
    document.addEventListener('click', click, true);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      window.removeEventListener('popstate', popState);
      document.removeEventListener('click', click, true);
      // Saved (still on this page, on the copy): step off the copy, so Back needs no extra press.
      if (!released && onTrap()) window.history.back();
    };
  }, [dirty, navigate]);

  return { asking: pending !== null, ask, leave, stay };
}

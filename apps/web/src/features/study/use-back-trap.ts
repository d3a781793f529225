import { useEffect } from 'react';

/**
 * Traps the browser back button on study pages (spec section 2): a duplicate of the current history
 * entry is pushed, and every back press lands on it and pushes it again, so the page stays put.
 * The router's own state is copied, so it sees the same location and does not re-render the page.
 */
export function useBackTrap(): void {
  useEffect(() => {
    const push = () => window.history.pushState(window.history.state, '', window.location.href);
    push();
    window.addEventListener('popstate', push);
    return () => window.removeEventListener('popstate', push);
  }, []);
}

import { useCallback, useLayoutEffect, useState, type ComponentType, type ReactNode } from 'react';
import {
  Link,
  Route as WouterRoute,
  Router,
  Switch,
  useLocation as useWouterLocation,
  useParams as useWouterParams,
  useSearch,
  useSearchParams,
} from 'wouter';
import { memoryLocation } from 'wouter/memory-location';

// The app's routing on wouter (docs/decisions/0079): about 2.5 KB gzipped where react-router cost 14 KB of every
// participant page's 100 KB budget. These few helpers keep the call sites the app already had: navigate(to,
// { replace, state }), a location with its state, <Navigate>, and route tables of <Route path element>.

/** A route table: the first `<Route>` that matches is shown. */
export { Link, Switch as Routes, Switch, useSearchParams };

export interface NavigateOptions {
  replace?: boolean;
  /** Kept with the history entry (a reload keeps it), and readable at once through `useLocation().state`. */
  state?: unknown;
}

/** The state of the last navigation made in this page (history.state after a reload or outside the app). */
let lastState: { value: unknown } | null = null;

export function useNavigate(): (to: string, options?: NavigateOptions) => void {
  const [, navigate] = useWouterLocation();
  return useCallback(
    (to: string, options: NavigateOptions = {}) => {
      lastState = { value: options.state ?? null };
      navigate(to, { replace: options.replace ?? false, state: options.state ?? null });
    },
    [navigate],
  );
}

export interface AppLocation {
  pathname: string;
  /** With its leading "?" (empty when there is none). */
  search: string;
  state: unknown;
}

export function useLocation(): AppLocation {
  const [pathname] = useWouterLocation();
  const search = useSearch();
  const state = lastState ? lastState.value : typeof window === 'undefined' ? null : (window.history.state as unknown);
  return { pathname, search: search ? `?${search}` : '', state };
}

export function useParams(): Record<string, string | undefined> {
  return useWouterParams() as Record<string, string | undefined>;
}

/** Goes to `to` once rendered (a guard's redirect). */
export function Navigate({ to, replace = false, state }: { to: string } & NavigateOptions) {
  const navigate = useNavigate();
  useLayoutEffect(() => navigate(to, { replace, state }), [navigate, to, replace, state]);
  return null;
}

/**
 * One route of a table inside `<Switch>`: `path` (":name" parameters; "*" or none matches anything left) and the
 * element it shows.
 */
export function Route({
  path,
  element,
  children,
  match,
}: {
  path?: string;
  element?: ReactNode;
  children?: ReactNode;
  /** Set by `<Switch>`, which has matched already (wouter's own prop, missing from its types). */
  match?: unknown;
}) {
  return (
    <MatchedRoute path={path === '*' ? undefined : path} match={match}>
      {element ?? children}
    </MatchedRoute>
  );
}

const MatchedRoute = WouterRoute as ComponentType<{ path?: string; match?: unknown; children?: ReactNode }>;

/** The browser's address bar (main.tsx). */
export function BrowserRouter({ children }: { children: ReactNode }) {
  return <Router>{children}</Router>;
}

type Entry = string | { pathname: string; search?: string; state?: unknown };

/** Tests: the app at `initialEntries[0]` (a path, or a location with its state), in memory. */
export function MemoryRouter({ initialEntries = ['/'], children }: { initialEntries?: Entry[]; children: ReactNode }) {
  const [location] = useState(() => {
    const entry = initialEntries[0] ?? '/';
    const path = typeof entry === 'string' ? entry : `${entry.pathname}${entry.search ?? ''}`;
    lastState = typeof entry === 'string' ? null : { value: entry.state ?? null };
    return memoryLocation({ path, record: true });
  });
  return (
    <Router hook={location.hook} searchHook={location.searchHook}>
      {children}
    </Router>
  );
}

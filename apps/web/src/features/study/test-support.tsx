import type { Journey } from '@studychat/contracts/web';
import { render } from '@testing-library/react';
import { useState, type ReactElement, type ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from '../../lib/router';
import { vi } from 'vitest';
import { setToken } from '../../lib/session';
import { builtInStudy } from './builtin-study';
import { receiveJourney } from './participant-store';
import { StudyContext, type PageStudy } from './study-context';

export const USER_ID = '11111111-1111-4111-8111-111111111111';
export const EXP_ID = '22222222-2222-4222-8222-222222222222';

/** The study read a study guard makes (the participant view of the experiment's version). */
export const STUDY_VIEW = `GET /api/participants/study/${EXP_ID}`;
/** The server's participant view of the built-in study, as a mocked reply. */
export const studyView = { status: 200, body: { ...builtInStudy, version_id: null } };

/** Stores a participant token (the payload is read, never verified, in the browser). */
export function loginAs(payload: { userId?: string; isAdmin?: boolean } = {}): void {
  const claims = { userId: payload.userId ?? USER_ID, email: 'p@study.test', isAdmin: payload.isAdmin ?? false };
  const b64 = btoa(JSON.stringify(claims)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  setToken(`eyJhbGciOiJIUzI1NiJ9.${b64}.sig`);
}

type Reply = { status: number; body?: unknown };
type Handler = Reply | Reply[] | ((body: unknown) => Reply);

/**
 * Stubs fetch with replies per "METHOD /path" (query ignored); a list is used in order, its last
 * entry repeating. Returns the calls made, in order, with their parsed bodies.
 */
export function mockApi(routes: Record<string, Handler>) {
  const calls: { key: string; url: string; body: unknown }[] = [];
  const used = new Map<string, number>();
  const fetchMock = vi.fn((url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const path = url.split('?')[0] ?? url;
    const key = `${method} ${path}`;
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ key, url, body });
    const handler = routes[key];
    if (!handler) return Promise.resolve(json(500, { error: `unmocked ${key}`, code: 'INTERNAL' }));
    let reply: Reply;
    if (typeof handler === 'function') reply = handler(body);
    else if (Array.isArray(handler)) {
      const n = used.get(key) ?? 0;
      used.set(key, n + 1);
      reply = handler[Math.min(n, handler.length - 1)] ?? { status: 500 };
    } else reply = handler;
    return Promise.resolve(json(reply.status, reply.body ?? {}));
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, keys: () => calls.map((c) => c.key) };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function WhereAmI() {
  const location = useLocation();
  const state = location.state as { pathway?: string } | null;
  return (
    <p data-testid="location">
      {location.pathname}
      {state?.pathway ? ` pathway=${state.pathway}` : ''}
    </p>
  );
}

/**
 * A page as its study guard hands it over: the server's journey (if given) in the participant store, and the
 * study in context (the built-in one unless given).
 */
export function Guarded({
  journey = null,
  study = builtInStudy,
  children,
}: {
  journey?: Journey | null;
  study?: PageStudy | null;
  children: ReactNode;
}) {
  useState(() => {
    if (journey) receiveJourney(journey);
    return journey;
  });
  return <StudyContext value={study}>{children}</StudyContext>;
}

/**
 * Renders `element` at `path`; any other route shows its location, for navigation assertions. The page gets the
 * built-in study as its guard would hand it down (a test's own Guarded inside `element` wins).
 */
export function renderAt(element: ReactElement, path: string, pattern = path, state?: unknown) {
  return render(
    <StudyContext value={builtInStudy}>
      <MemoryRouter
        initialEntries={[
          { pathname: path.split('?')[0] ?? path, search: path.includes('?') ? `?${path.split('?')[1]}` : '', state },
        ]}
      >
        <Routes>
          <Route path={pattern.split('?')[0]} element={element} />
          <Route path="*" element={<WhereAmI />} />
        </Routes>
      </MemoryRouter>
    </StudyContext>,
  );
}

export function assignment(overrides: Record<string, unknown> = {}) {
  return {
    id: '33333333-3333-4333-8333-333333333333',
    user_id: USER_ID,
    experiment_id: EXP_ID,
    prolific_pid: 'PID1',
    study_id: null,
    session_id: null,
    assigned_condition: null,
    stratum: null,
    condition_assigned_at: null,
    consent_given: true,
    consent_timestamp: null,
    created_at: '2026-11-21T00:00:00.000Z',
    intervention_completed_timestamp: null,
    completion_pathway: null,
    completed_at: null,
    ...overrides,
  };
}

/** A server journey for the test experiment, at the consent step unless overridden. */
export function journey(overrides: Partial<Journey> = {}): Journey {
  return {
    experimentId: EXP_ID,
    step: 'consent',
    currentSection: null,
    done: {
      consent: false,
      entry: false,
      baseline: false,
      preSurvey: false,
      assignment: false,
      sections: false,
      chat: false,
      postSurvey: false,
      completion: false,
    },
    entryChoice: null,
    baselineIntention: null,
    condition: null,
    pathway: null,
    completion: { alreadyCompleted: false, completionPathway: null, completionCode: null },
    sections: [],
    chat: { threadId: null, rounds: 0, chars: 0, points: 0, complete: false, closed: null },
    serverTime: '2026-11-21T09:00:00.000Z',
    ...overrides,
  };
}

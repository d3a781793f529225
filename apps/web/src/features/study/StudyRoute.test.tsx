import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { StudyRoute } from './StudyRoute';
import { assignment, EXP_ID, loginAs, mockApi, USER_ID } from './test-support';

afterEach(() => vi.unstubAllGlobals());

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname} ${JSON.stringify(location.state ?? null)}`}</p>;
}

function renderRoute(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route
          path="/entry"
          element={
            <StudyRoute step="entry">
              <p>Entry page</p>
            </StudyRoute>
          }
        />
        <Route
          path="/experiment/:experimentId/static"
          element={
            <StudyRoute step="static">
              <p>Static page</p>
            </StudyRoute>
          }
        />
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('StudyRoute', () => {
  it('sends a participant whose fetched status is completed to /completion with the pathway, and caches it', async () => {
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    sessionStorage.setItem('consentGiven', 'true');
    mockApi({
      [`GET /api/participants/status/${EXP_ID}`]: {
        status: 200,
        body: { alreadyCompleted: true, completionPathway: 'ceiling', completionCode: 'CE-1' },
      },
    });
    renderRoute('/entry');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/completion {"pathway":"ceiling"}'));
    expect(JSON.parse(sessionStorage.getItem(`completion_status_${EXP_ID}`) ?? '{}')).toMatchObject({
      alreadyCompleted: true,
    });
  });

  it('shows the page when the status says not completed, and still when the status cannot be fetched', async () => {
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    sessionStorage.setItem('consentGiven', 'true');
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockApi({ [`GET /api/participants/status/${EXP_ID}`]: { status: 503, body: { error: 'down', code: 'INTERNAL' } } });
    renderRoute('/entry');
    expect(await screen.findByText('Entry page')).toBeInTheDocument();
  });

  it('repairs a lost condition from the server assignment', async () => {
    loginAs();
    sessionStorage.setItem('consentGiven', 'true');
    sessionStorage.setItem('preSurveySubmitted', 'true');
    const api = mockApi({
      [`GET /api/participants/status/${EXP_ID}`]: {
        status: 200,
        body: { alreadyCompleted: false, completionPathway: null, completionCode: null },
      },
      [`GET /api/participants/${USER_ID}/${EXP_ID}`]: {
        status: 200,
        body: assignment({ assigned_condition: 'control' }),
      },
    });
    renderRoute(`/experiment/${EXP_ID}/static`);
    expect(await screen.findByText('Static page')).toBeInTheDocument();
    expect(sessionStorage.getItem('EXPERIMENT_ID')).toBe(EXP_ID);
    expect(sessionStorage.getItem('assignedCondition')).toBe('control');
    expect(api.keys()).toContain(`GET /api/participants/${USER_ID}/${EXP_ID}`);
  });

  it('clears the pre-survey flag when no assignment exists, which leads back to the pre-survey', async () => {
    loginAs();
    sessionStorage.setItem('consentGiven', 'true');
    sessionStorage.setItem('preSurveySubmitted', 'true');
    mockApi({
      [`GET /api/participants/status/${EXP_ID}`]: {
        status: 200,
        body: { alreadyCompleted: false, completionPathway: null, completionCode: null },
      },
      [`GET /api/participants/${USER_ID}/${EXP_ID}`]: { status: 404, body: { error: 'Not found', code: 'NOT_FOUND' } },
    });
    renderRoute(`/experiment/${EXP_ID}/static`);
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/pre-survey'));
    expect(sessionStorage.getItem('preSurveySubmitted')).toBeNull();
  });

  it('traps the back button by pushing the current location again', async () => {
    loginAs({ isAdmin: true });
    sessionStorage.setItem('consentGiven', 'true');
    const push = vi.spyOn(window.history, 'pushState');
    renderRoute('/entry');
    expect(await screen.findByText('Entry page')).toBeInTheDocument();
    const before = push.mock.calls.length;
    expect(before).toBeGreaterThan(0);
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(push.mock.calls.length).toBe(before + 1);
    expect(push.mock.calls.at(-1)?.[2]).toBe(window.location.href);
    push.mockRestore();
  });
});

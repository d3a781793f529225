import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes, useLocation } from '../../lib/router';
import { setUnauthorizedHandler } from '../../lib/api';
import { StudyRoute } from './StudyRoute';
import { JOURNEY_FRESH_MS, receiveJourney, refreshJourney, useParticipant } from './participant-store';
import { useStudy } from './study-context';
import { assignment, EXP_ID, journey, loginAs, mockApi, STUDY_VIEW, studyView, USER_ID } from './test-support';

const JOURNEY = `GET /api/participants/journey/${EXP_ID}`;

/** A page that shows the server step its guard handed down. */
function StepShown({ name }: { name: string }) {
  return <p>{`${name} page, server step ${useParticipant().journey?.step ?? 'unknown'}`}</p>;
}

/** A page that shows the title of the study its guard handed down. */
function StudyShown() {
  return <p>{`Study: ${useStudy().entry.title}`}</p>;
}

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
              <StepShown name="Entry" />
            </StudyRoute>
          }
        />
        <Route
          path="/experiment/:experimentId/static"
          element={
            <StudyRoute step="static">
              <StepShown name="Static" />
            </StudyRoute>
          }
        />
        <Route
          path="/consent"
          element={
            <StudyRoute step="consent">
              <StudyShown />
            </StudyRoute>
          }
        />
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('StudyRoute', () => {
  it("sends a participant whose server journey is completed to /completion with the server's pathway, and caches it", async () => {
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    sessionStorage.setItem('consentGiven', 'true');
    const completion = { alreadyCompleted: true, completionPathway: 'ceiling' as const, completionCode: 'CE-1' };
    mockApi({ [JOURNEY]: { status: 200, body: journey({ step: 'completed', pathway: 'ceiling', completion }) } });
    renderRoute('/entry');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/completion {"pathway":"ceiling"}'));
    expect(JSON.parse(sessionStorage.getItem(`completion_status_${EXP_ID}`) ?? '{}')).toMatchObject({
      alreadyCompleted: true,
    });
  });

  it("sends the participant to the page of the server's step, whatever the session flags say", async () => {
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    // Stale flags from before: the server says the participant is reading the sections.
    sessionStorage.setItem('consentGiven', 'true');
    sessionStorage.setItem('staticContentReviewed', 'true');
    const read = journey({
      step: 'sections',
      currentSection: 0,
      condition: 'mmr',
      done: { ...journey().done, consent: true, entry: true, baseline: true, preSurvey: true, assignment: true },
    });
    mockApi({ [JOURNEY]: { status: 200, body: read } });
    renderRoute('/entry');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(`/experiment/${EXP_ID}/static-intro`));
    expect(sessionStorage.getItem('staticContentReviewed')).toBeNull();
    expect(sessionStorage.getItem('assignedCondition')).toBe('mmr');
    expect(sessionStorage.getItem('preSurveySubmitted')).toBe('true');
  });

  it('shows the page at its server step and hands the journey to it; with no answer the session decides', async () => {
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    const atEntry = journey({ step: 'entry', done: { ...journey().done, consent: true } });
    mockApi({ [JOURNEY]: { status: 200, body: atEntry }, [STUDY_VIEW]: studyView });
    renderRoute('/entry');
    expect(await screen.findByText('Entry page, server step entry')).toBeInTheDocument();
    expect(sessionStorage.getItem('consentGiven')).toBe('true');
  });

  it('leaves a 401 to the session handling (to /login), without sending the participant to /prolific', async () => {
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    const toLogin = vi.fn();
    setUnauthorizedHandler(toLogin);
    const ended = { status: 401, body: { error: 'Your session has ended.', code: 'UNAUTHENTICATED' } };
    mockApi({ [JOURNEY]: ended, [`GET /api/participants/study/${EXP_ID}`]: ended });
    renderRoute('/entry');
    await waitFor(() => expect(toLogin).toHaveBeenCalled());
    expect(localStorage.getItem('token')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Loading the study page' })).toBeInTheDocument();
    expect(screen.queryByTestId('where')).toBeNull();
  });

  it('falls back to the session when the journey cannot be read', async () => {
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    sessionStorage.setItem('consentGiven', 'true');
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockApi({ [JOURNEY]: { status: 503, body: { error: 'down', code: 'INTERNAL' } }, [STUDY_VIEW]: studyView });
    renderRoute('/entry');
    expect(await screen.findByText('Entry page, server step unknown')).toBeInTheDocument();
  });

  it('repairs a lost condition from the server assignment', async () => {
    loginAs();
    sessionStorage.setItem('consentGiven', 'true');
    sessionStorage.setItem('preSurveySubmitted', 'true');
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const api = mockApi({
      // Not joined as far as the server knows: the session decides and repairs itself.
      [JOURNEY]: { status: 404, body: { error: 'No participation found', code: 'NOT_FOUND' } },
      [STUDY_VIEW]: studyView,
      [`GET /api/participants/${USER_ID}/${EXP_ID}`]: {
        status: 200,
        body: assignment({ assigned_condition: 'control' }),
      },
    });
    renderRoute(`/experiment/${EXP_ID}/static`);
    expect(await screen.findByText('Static page, server step unknown')).toBeInTheDocument();
    expect(sessionStorage.getItem('EXPERIMENT_ID')).toBe(EXP_ID);
    expect(sessionStorage.getItem('assignedCondition')).toBe('control');
    expect(api.keys()).toContain(`GET /api/participants/${USER_ID}/${EXP_ID}`);
  });

  it('clears the pre-survey flag when no assignment exists, which leads back to the pre-survey', async () => {
    loginAs();
    sessionStorage.setItem('consentGiven', 'true');
    sessionStorage.setItem('preSurveySubmitted', 'true');
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockApi({
      [JOURNEY]: { status: 404, body: { error: 'No participation found', code: 'NOT_FOUND' } },
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
    expect(await screen.findByText('Entry page, server step unknown')).toBeInTheDocument();
    const before = push.mock.calls.length;
    expect(before).toBeGreaterThan(0);
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(push.mock.calls.length).toBe(before + 1);
    expect(push.mock.calls.at(-1)?.[2]).toBe(window.location.href);
    push.mockRestore();
  });

  it("never shows another study's texts when the study cannot be read: it says so, and Try again reads it again", async () => {
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const sleep = { ...studyView.body, entry: { ...studyView.body.entry, title: 'Sleep and screens' } };
    const api = mockApi({
      [JOURNEY]: { status: 200, body: journey({ step: 'consent' }) },
      [STUDY_VIEW]: [
        { status: 503, body: { error: 'down', code: 'INTERNAL' } },
        { status: 200, body: sleep },
      ],
    });
    renderRoute('/consent');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Please check your internet connection, then try again.',
    );
    expect(screen.queryByText(/^Study:/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Study: Sleep and screens')).toBeInTheDocument();
    expect(api.keys().filter((key) => key === STUDY_VIEW)).toHaveLength(2);
  });

  it('tells a participant with no participation on the server to open the Prolific link again (no retry loop)', async () => {
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockApi({
      [JOURNEY]: { status: 200, body: journey({ step: 'consent' }) },
      [STUDY_VIEW]: { status: 404, body: { error: 'No participation found', code: 'NOT_FOUND' } },
    });
    renderRoute('/consent');
    expect(await screen.findByRole('alert')).toHaveTextContent('Please open the study link from Prolific again.');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.queryByText(/^Study:/)).toBeNull();
  });

  it('never shows a participant the built-in study when this tab knows no experiment: the Prolific link leads back', async () => {
    loginAs();
    const api = mockApi({});
    renderRoute('/consent');
    expect(await screen.findByRole('alert')).toHaveTextContent('Please open the study link from Prolific again.');
    expect(screen.queryByText(/^Study:/)).toBeNull();
    expect(api.keys()).toEqual([]);
  });

  it('shows an admin with no experiment the built-in study, read by no call', async () => {
    loginAs({ isAdmin: true });
    const api = mockApi({});
    renderRoute('/consent');
    expect(await screen.findByText(`Study: ${studyView.body.entry.title}`)).toBeInTheDocument();
    expect(api.keys()).toEqual([]);
  });

  it('takes the fresh journey a write handed over, and reads none; a stale one is read again', async () => {
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    receiveJourney(journey({ step: 'entry', done: { ...journey().done, consent: true } }));
    const api = mockApi({ [STUDY_VIEW]: studyView });
    renderRoute('/entry');
    expect(await screen.findByText('Entry page, server step entry')).toBeInTheDocument();
    expect(api.keys()).toEqual([STUDY_VIEW]);
    expect(sessionStorage.getItem('consentGiven')).toBe('true');
    // Once it is no longer fresh, the next page's guard reads the server.
    cleanup();
    vi.setSystemTime(Date.now() + JOURNEY_FRESH_MS + 1);
    const next = mockApi({
      [JOURNEY]: { status: 200, body: journey({ step: 'entry', done: { ...journey().done, consent: true } }) },
      [STUDY_VIEW]: studyView,
    });
    renderRoute('/entry');
    expect(await screen.findByText('Entry page, server step entry')).toBeInTheDocument();
    expect(next.keys()).toContain(JOURNEY);
    vi.useRealTimers();
  });

  it('reads the journey when the handed one does not let this page show, or belongs to another experiment', async () => {
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    const atEntry = journey({ step: 'entry', done: { ...journey().done, consent: true } });
    receiveJourney(journey({ step: 'consent' }));
    const api = mockApi({ [JOURNEY]: { status: 200, body: atEntry }, [STUDY_VIEW]: studyView });
    renderRoute('/entry');
    expect(await screen.findByText('Entry page, server step entry')).toBeInTheDocument();
    expect(api.keys()).toContain(JOURNEY);
    cleanup();

    // The store holds another experiment's journey (an earlier study in this tab); this tab is now in EXP_ID's.
    receiveJourney({ ...atEntry, experimentId: '33333333-3333-4333-8333-333333333333' });
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    const again = mockApi({ [JOURNEY]: { status: 200, body: atEntry }, [STUDY_VIEW]: studyView });
    renderRoute('/entry');
    expect(await screen.findByText('Entry page, server step entry')).toBeInTheDocument();
    expect(again.keys()).toContain(JOURNEY);
  });

  it("stays on the page when the page's own write moves the journey on, and follows a read of it", async () => {
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    const atEntry = journey({ step: 'entry', done: { ...journey().done, consent: true } });
    receiveJourney(atEntry);
    const api = mockApi({
      [STUDY_VIEW]: studyView,
      [JOURNEY]: { status: 200, body: journey({ step: 'baseline', done: { ...atEntry.done, entry: true } }) },
    });
    renderRoute('/entry');
    expect(await screen.findByText('Entry page, server step entry')).toBeInTheDocument();
    // The entry page's own answer comes back with the journey at the baseline: the page moves on in its own time.
    act(() => receiveJourney(journey({ step: 'baseline', done: { ...atEntry.done, entry: true } })));
    expect(screen.getByText('Entry page, server step baseline')).toBeInTheDocument();
    expect(screen.queryByTestId('where')).toBeNull();
    // A read (the page was refused and asks where the participant is): the guard takes them there.
    await act(() => refreshJourney(EXP_ID));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/baseline-intention'));
    expect(api.keys()).toContain(JOURNEY);
  });
});

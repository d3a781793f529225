import type { Journey, SectionTiming } from '@studychat/contracts/web';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes, useLocation } from '../../../lib/router';
import { builtInStudy } from '../builtin-study';
import { EXP_ID, journey, loginAs, mockApi, Guarded } from '../test-support';
import type { PageStudy } from '../study-context';
import { freshJourney } from '../participant-store';
import { StaticPage } from './StaticPage';

const T0 = Date.UTC(2026, 10, 21, 9, 0, 0);
const control = builtInStudy.conditions.control.sections;
const OPEN = 'POST /api/participants/sections/open';
const FINISH = 'POST /api/participants/sections/finish';

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

function timing(index: number, remainingMs: number, finished = false): SectionTiming {
  return {
    index,
    id: control[index]?.id ?? 's',
    minSeconds: control[index]?.minSeconds ?? 20,
    openedAt: new Date(T0).toISOString(),
    finishedAt: finished ? new Date(T0).toISOString() : null,
    remainingSeconds: Math.ceil(remainingMs / 1000),
    remainingMs,
    visibleSeconds: null,
    hiddenSeconds: null,
  };
}

/** The server's journey at section `current` of the control condition. */
function journeyAt(current: number): Journey {
  return journey({
    step: 'sections',
    currentSection: current,
    condition: 'control',
    sections: control.map((s, i) => timing(i, i < current ? 0 : s.minSeconds * 1000, i < current)),
  });
}

const reply = (section: SectionTiming) => ({ status: 200, body: { section, serverTime: new Date(T0).toISOString() } });

function renderStatic(journey: Journey | null, study: PageStudy = builtInStudy) {
  render(
    <Guarded journey={journey} study={study}>
      <MemoryRouter initialEntries={[`/experiment/${EXP_ID}/static`]}>
        <Routes>
          <Route path="/experiment/:experimentId/static" element={<StaticPage />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </Guarded>,
  );
}

let visibility: DocumentVisibilityState = 'visible';
function setVisibility(state: DocumentVisibilityState) {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
}

const pass = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const click = (name: string) =>
  act(async () => {
    screen.getByRole('button', { name }).click();
    await vi.advanceTimersByTimeAsync(0);
  });

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
  loginAs();
  sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
  visibility = 'visible';
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

// jsdom lays nothing out, so every section "fits on screen": the scroll rule is covered by its pure
// function and the end-to-end test; this covers the server times, the visible-time countdown and the writes.
describe('StaticPage', () => {
  it("opens the section on the server, counts down the server's time, finishes it with visible and hidden time", async () => {
    const api = mockApi({ [OPEN]: reply(timing(0, 15_000)), [FINISH]: reply(timing(0, 0, true)) });
    renderStatic(journeyAt(0));
    expect(screen.getByRole('heading', { level: 1, name: control[0]?.title })).toBeInTheDocument();
    await pass(0);
    expect(api.calls[0]).toMatchObject({ key: OPEN, body: { experimentId: EXP_ID, sectionIndex: 0 } });
    const next = screen.getByRole('button', { name: 'Next Section' });
    expect(next).toBeDisabled();
    await pass(14_000);
    expect(screen.getByText(/You can continue in 1 second\./)).toBeInTheDocument();
    expect(next).toBeDisabled();
    await pass(1_000);
    expect(next).toBeEnabled();
    await click('Next Section');
    expect(api.calls.find((c) => c.key === FINISH)?.body).toEqual({
      experimentId: EXP_ID,
      sectionIndex: 0,
      visibleSeconds: 15,
      hiddenSeconds: 0,
    });
    expect(screen.getByRole('heading', { level: 1, name: control[1]?.title })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Sections reviewed' })).toHaveAttribute('aria-valuenow', '25');
    expect(localStorage.getItem(`experiment_${EXP_ID}_currentSection`)).toBe('1');
    expect(api.calls.at(-1)).toMatchObject({ key: OPEN, body: { sectionIndex: 1 } });
  });

  it("starts the next section from the finish's reply (the server opened it in the same write), with no open call", async () => {
    const finished = {
      status: 200,
      body: { section: timing(0, 0, true), next: timing(1, 40_000), serverTime: new Date(T0).toISOString() },
    };
    const api = mockApi({ [OPEN]: reply(timing(0, 15_000)), [FINISH]: finished });
    renderStatic(journeyAt(0));
    await pass(0);
    await pass(15_000);
    await click('Next Section');
    await pass(0);
    expect(screen.getByRole('heading', { level: 1, name: control[1]?.title })).toBeInTheDocument();
    expect(api.keys()).toEqual([OPEN, FINISH]);
    const next = screen.getByRole('button', { name: 'Next Section' });
    await pass(39_000);
    expect(next).toBeDisabled();
    await pass(1_000);
    expect(next).toBeEnabled();
    expect(api.keys()).toEqual([OPEN, FINISH]);
  });

  it('does not count time while the page is hidden, and reports that time', async () => {
    const api = mockApi({ [OPEN]: reply(timing(0, 15_000)), [FINISH]: reply(timing(0, 0, true)) });
    renderStatic(journeyAt(0));
    await pass(0);
    await pass(5_000);
    expect(screen.getByText(/You can continue in 10 seconds\./)).toBeInTheDocument();
    act(() => setVisibility('hidden'));
    await pass(30_000);
    act(() => setVisibility('visible'));
    expect(screen.getByText(/You can continue in 10 seconds\./)).toBeInTheDocument();
    await pass(10_000);
    await click('Next Section');
    expect(api.calls.find((c) => c.key === FINISH)?.body).toMatchObject({ visibleSeconds: 15, hiddenSeconds: 30 });
  });

  it("resumes at the server's section with the server's remaining time, as on another device; Complete leads to the chat", async () => {
    localStorage.setItem(`experiment_${EXP_ID}_currentSection`, '0');
    mockApi({ [OPEN]: reply(timing(3, 8_000)), [FINISH]: reply(timing(3, 0, true)) });
    renderStatic(journeyAt(3));
    await pass(0);
    expect(screen.getByText('Section 4 of 4')).toBeInTheDocument();
    expect(screen.getByText(/You can continue in 8 seconds\./)).toBeInTheDocument();
    await pass(8_000);
    await click('Complete');
    expect(screen.getByTestId('where')).toHaveTextContent(`/experiment/${EXP_ID}/chat`);
    expect(sessionStorage.getItem('staticContentReviewed')).toBe('true');
  });

  it('keeps counting when the server says the section is not done yet, and reports a failed save', async () => {
    mockApi({
      [OPEN]: reply(timing(0, 15_000)),
      [FINISH]: [
        { status: 409, body: { error: 'Please keep reading', code: 'SECTION_TOO_EARLY', remainingSeconds: 3 } },
        { status: 503, body: { error: 'down', code: 'INTERNAL' } },
        reply(timing(0, 0, true)),
      ],
    });
    renderStatic(journeyAt(0));
    await pass(0);
    await pass(15_000);
    await click('Next Section');
    expect(screen.getByText(/You can continue in 3 seconds\./)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next Section' })).toBeDisabled();
    await pass(3_000);
    await click('Next Section');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Your progress could not be saved. Please check your connection and try again.',
    );
    await click('Next Section');
    expect(screen.getByRole('heading', { level: 1, name: control[1]?.title })).toBeInTheDocument();
  });

  it("asks for the server's journey again when the server says the participant is elsewhere", async () => {
    const api = mockApi({
      [OPEN]: { status: 409, body: { error: 'Not now', code: 'STEP_OUT_OF_ORDER', step: 'chat' } },
      [`GET /api/participants/journey/${EXP_ID}`]: { status: 200, body: { ...journeyAt(0), step: 'chat' } },
    });
    renderStatic(journeyAt(0));
    await pass(0);
    await pass(0);
    expect(api.keys()).toContain(`GET /api/participants/journey/${EXP_ID}`);
    expect(freshJourney(EXP_ID)?.step).toBe('chat');
  });

  it('shows a Markdown section once its renderer has loaded, with a loading state until then', async () => {
    const study = structuredClone(builtInStudy);
    const [first] = study.conditions.control.sections;
    if (!first) throw new Error('the built-in study has sections');
    first.blocks = [{ markdown: 'Car seats **save lives**.\n\n<script>window.hacked = true</script>' }];
    mockApi({ [OPEN]: reply(timing(0, 15_000)), [FINISH]: reply(timing(0, 0, true)) });
    await import('../StudyMarkdown'); // compiled once here, so the page's own import is quick
    renderStatic(journeyAt(0), study);
    expect(screen.getByRole('heading', { level: 1, name: first.title })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    // The renderer's chunk comes in (vi.waitFor moves the fake clock a little on each look).
    await vi.waitFor(() => expect(screen.getByText('save lives')).toContainHTML('<strong>save lives</strong>'), {
      timeout: 10_000,
    });
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByText('<script>window.hacked = true</script>')).toBeInTheDocument();
    expect(document.querySelector('script')).toBeNull();
    await pass(15_000);
    expect(screen.getByRole('button', { name: 'Next Section' })).toBeEnabled();
  });
});

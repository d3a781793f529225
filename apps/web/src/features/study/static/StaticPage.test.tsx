import { studyDefinition } from '@studychat/contracts/web';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { EXP_ID, loginAs, mockApi } from '../test-support';
import { StaticPage } from './StaticPage';

const T0 = Date.UTC(2026, 10, 21, 9, 0, 0);
const control = studyDefinition.conditions.control.sections;

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

function renderStatic() {
  return render(
    <MemoryRouter initialEntries={[`/experiment/${EXP_ID}/static`]}>
      <Routes>
        <Route path="/experiment/:experimentId/static" element={<StaticPage />} />
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
}

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
  loginAs();
  sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
  sessionStorage.setItem('assignedCondition', 'control');
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

// jsdom lays nothing out, so every section "fits on screen": the scroll rule is covered by its pure
// function and the end-to-end test; this covers the countdown, progress and the writes.
describe('StaticPage', () => {
  it('enables Next Section only after the countdown, records exposure, and moves on', async () => {
    const api = mockApi({ 'POST /api/participants/exposures': { status: 200, body: { ok: true, sectionIndex: 0 } } });
    renderStatic();
    expect(screen.getByRole('heading', { level: 1, name: control[0]?.title })).toBeInTheDocument();
    const next = screen.getByRole('button', { name: 'Next Section' });
    expect(next).toBeDisabled();
    await act(() => vi.advanceTimersByTimeAsync(14_000));
    expect(screen.getByText(/You can continue in 1 second\./)).toBeInTheDocument();
    expect(next).toBeDisabled();
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(next).toBeEnabled();
    await act(async () => {
      next.click();
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByRole('heading', { level: 1, name: control[1]?.title })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Sections reviewed' })).toHaveAttribute('aria-valuenow', '25');
    expect(localStorage.getItem(`experiment_${EXP_ID}_currentSection`)).toBe('1');
    expect(JSON.parse(localStorage.getItem(`experiment_${EXP_ID}_sectionStatus`) ?? '[]')).toEqual([
      true,
      false,
      false,
      false,
    ]);
    expect(api.calls[0]?.body).toEqual({ experimentId: EXP_ID, sectionIndex: 0, secondsOnScreen: 15 });
    expect(screen.getByRole('button', { name: 'Next Section' })).toBeDisabled();
  });

  it('resumes after a reload with the time already spent, and Complete leads to the chat', async () => {
    mockApi({ 'POST /api/participants/exposures': { status: 503, body: { error: 'down', code: 'INTERNAL' } } });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    localStorage.setItem(`experiment_${EXP_ID}_currentSection`, '3');
    localStorage.setItem(`experiment_${EXP_ID}_sectionStatus`, JSON.stringify([true, true, true, false]));
    localStorage.setItem(`experiment_${EXP_ID}_sectionStartTime_3`, String(T0 - 12_000));
    renderStatic();
    expect(screen.getByText('Section 4 of 4')).toBeInTheDocument();
    expect(screen.getByText(/You can continue in 8 seconds\./)).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(8_000));
    const complete = screen.getByRole('button', { name: 'Complete' });
    expect(complete).toBeEnabled();
    await act(async () => {
      complete.click();
      await vi.advanceTimersByTimeAsync(0);
    });
    // A failed exposure write does not hold the participant up.
    expect(screen.getByTestId('where')).toHaveTextContent(`/experiment/${EXP_ID}/chat`);
    expect(sessionStorage.getItem('staticContentReviewed')).toBe('true');
  });
});

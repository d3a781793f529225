import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MemoryRouter, Route, Routes } from '../../../lib/router';
import { FinishedPage } from './FinishedPage';

function show(state?: unknown) {
  render(
    <MemoryRouter initialEntries={[{ pathname: '/finished', state }]}>
      <Routes>
        <Route path="/finished" element={<FinishedPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('FinishedPage', () => {
  it('says the participant is done and may close the tab, and offers nothing to start again (issue 34)', () => {
    show({ participantId: 'PID-7', experimentId: 'exp-1' });
    expect(screen.getByRole('heading', { level: 1, name: 'You have finished the study' })).toBeInTheDocument();
    expect(screen.getByText(/you may now close this tab/)).toBeInTheDocument();
    expect(screen.getByText(/you have been logged out of the study/)).toBeInTheDocument();
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    // The footer keeps the ids the completion page showed, though the study's storage is cleared.
    expect(screen.getByText('PID-7')).toBeInTheDocument();
    expect(screen.getByText('exp-1')).toBeInTheDocument();
  });

  it('opened without ids (a reload), it still says done, with the footer saying the ids are not set', () => {
    show();
    expect(screen.getByRole('heading', { level: 1, name: 'You have finished the study' })).toBeInTheDocument();
    expect(screen.getAllByText('not set')).toHaveLength(2);
  });
});

import { render, screen } from '@testing-library/react';
import { MemoryRouter } from '../../lib/router';
import { describe, expect, it } from 'vitest';
import { LoginPage } from './LoginPage';

const EXP = '22222222-2222-4222-8222-222222222222';

function show() {
  render(
    <MemoryRouter initialEntries={['/login']}>
      <LoginPage />
    </MemoryRouter>,
  );
}

describe('LoginPage', () => {
  it('is the researchers login, with no study notice, when the browser holds no study', () => {
    show();
    expect(screen.getByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.queryByText('Your study session has ended.')).toBeNull();
  });

  it('tells a participant whose session ended and links back to their own landing with the same ids', () => {
    sessionStorage.setItem('PROLIFIC_PID', 'PID 7&x');
    sessionStorage.setItem('EXPERIMENT_ID', EXP);
    sessionStorage.setItem('STUDY_ID', 'S-1');
    show();
    expect(screen.getByText('Your study session has ended.')).toBeInTheDocument();
    const link = screen.getByRole('link', { name: 'Return to the study' });
    expect(link).toHaveAttribute('href', `/prolific?PROLIFIC_PID=PID+7%26x&EXPERIMENT_ID=${EXP}&STUDY_ID=S-1`);
    // The researchers' form is still there.
    expect(screen.getByRole('button', { name: 'Log In' })).toBeInTheDocument();
  });

  it('needs both the Prolific and the experiment id for the notice', () => {
    sessionStorage.setItem('PROLIFIC_PID', 'PID-7');
    show();
    expect(screen.queryByText('Your study session has ended.')).toBeNull();
  });
});

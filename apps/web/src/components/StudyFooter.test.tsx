import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StudyFooter } from './StudyFooter';

describe('StudyFooter', () => {
  it('shows the participant and experiment ids from session storage and the disclaimer', () => {
    sessionStorage.setItem('PROLIFIC_PID', 'PID-123');
    sessionStorage.setItem('EXPERIMENT_ID', 'exp-9');
    render(<StudyFooter />);
    expect(screen.getByText('PID-123')).toBeInTheDocument();
    expect(screen.getByText('exp-9')).toBeInTheDocument();
    expect(screen.getByText(/does not provide medical advice/)).toBeInTheDocument();
  });

  it('prefers explicit ids and says when one is missing', () => {
    render(<StudyFooter participantId="P-1" experimentId={null} />);
    expect(screen.getByText('P-1')).toBeInTheDocument();
    expect(screen.getByText('not set')).toBeInTheDocument();
  });
});

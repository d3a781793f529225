import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXP_ID, loginAs, mockApi, renderAt } from '../test-support';
import { BaselinePage } from './BaselinePage';

afterEach(() => vi.unstubAllGlobals());

function setup() {
  loginAs();
  sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
  sessionStorage.setItem('PROLIFIC_PID', 'PID1');
  renderAt(<BaselinePage />, '/baseline-intention');
}

describe('BaselinePage', () => {
  it('is a labelled 7-point radio group with the spec anchors, and Continue waits for a choice', () => {
    mockApi({});
    setup();
    const group = screen.getByRole('group', { name: /intend for your child to receive the MMR vaccine/ });
    expect(group.tagName).toBe('FIELDSET');
    expect(screen.getAllByRole('radio')).toHaveLength(7);
    expect(screen.getByRole('radio', { name: '1: Definitely not' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: '4: Uncertain' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: '7: Definitely yes' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();
  });

  it('moves the choice with the arrow keys like a native radio group', async () => {
    mockApi({});
    setup();
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: '3' }));
    expect(screen.getByRole('radio', { name: '3' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: '4: Uncertain' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();
  });

  it('records the baseline as a string and goes to the pre-survey for 1 to 6', async () => {
    const api = mockApi({ 'POST /api/surveys': { status: 200, body: { id: EXP_ID, created: true } } });
    setup();
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: '5' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/pre-survey'));
    expect(api.calls[0]?.body).toMatchObject({
      survey_type: 'baseline',
      responses: { vaccination_intention: '5' },
      prolific_pid: 'PID1',
    });
    expect(sessionStorage.getItem('baselineIntention')).toBe('5');
    expect(sessionStorage.getItem('baselineSubmitted')).toBe('true');
  });

  it('ends with the ceiling pathway at 7, and only logs failures (after one retry)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const api = mockApi({
      'POST /api/surveys': { status: 503, body: { error: 'down', code: 'INTERNAL' } },
      'POST /api/participants/completion': { status: 503, body: { error: 'down', code: 'INTERNAL' } },
    });
    setup();
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: '7: Definitely yes' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/completion pathway=ceiling'));
    expect(api.keys()).toEqual([
      'POST /api/surveys',
      'POST /api/surveys',
      'POST /api/participants/completion',
      'POST /api/participants/completion',
    ]);
    expect(api.calls[2]?.body).toEqual({ experimentId: EXP_ID, pathway: 'ceiling' });
    expect(warn).toHaveBeenCalled();
  });

  it('marks the required intention question with an asterisk and a spoken "required" (issue 34)', () => {
    mockApi({});
    setup();
    const group = screen.getByRole('group', { name: /MMR vaccine.*\s*\(required\)$/ });
    expect(group.querySelector('legend [aria-hidden="true"]')).toHaveTextContent('*');
  });
});

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { builtInStudy } from '../builtin-study';
import { EXP_ID, journey, loginAs, mockApi, renderAt, Guarded } from '../test-support';
import { CompletionPage } from './CompletionPage';

afterEach(() => vi.unstubAllGlobals());

const CODE_URL = `GET /api/experiments/${EXP_ID}/completion-code`;

function setup(state?: unknown, path = '/completion') {
  loginAs();
  sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
  renderAt(<CompletionPage />, path, '/completion', state);
}

describe('CompletionPage', () => {
  it('shows the code for the pathway in the navigation state, with the Prolific link', async () => {
    const api = mockApi({
      [CODE_URL]: { status: 200, body: { code: 'NQ-42', pathway: 'confirm', key: 'exitnoqualms' } },
    });
    setup({ pathway: 'confirm' }, '/completion?pathway=ceiling');
    expect(screen.getByText('Loading your code...')).toBeInTheDocument();
    expect(await screen.findByText('NQ-42')).toBeInTheDocument();
    expect(api.calls[0]?.url).toBe(`/api/experiments/${EXP_ID}/completion-code?pathway=confirm`);
    const link = screen.getByRole('link', { name: /Submit code on Prolific/ });
    expect(link).toHaveAttribute('href', 'https://app.prolific.com/submissions/complete?cc=NQ-42');
    expect(link).toHaveAttribute('target', '_blank');
  });

  it("takes the server's pathway over the navigation state, and records an exit the server has not recorded", async () => {
    const api = mockApi({
      'POST /api/participants/completion': {
        status: 200,
        body: { alreadyCompleted: true, completionPathway: 'ceiling', completionCode: 'CE-1' },
      },
      [CODE_URL]: { status: 200, body: { code: 'CE-1', pathway: 'ceiling', key: 'exitceiling' } },
    });
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    const atExit = journey({ step: 'ceiling_exit', pathway: 'ceiling' });
    renderAt(
      <Guarded journey={atExit}>
        <CompletionPage />
      </Guarded>,
      '/completion',
      '/completion',
      { pathway: 'complete' },
    );
    expect(await screen.findByText('CE-1')).toBeInTheDocument();
    // The completion's reply carries its code: no second request for it.
    expect(api.calls.map((c) => c.key)).toEqual(['POST /api/participants/completion']);
    expect(api.calls[0]?.body).toEqual({ experimentId: EXP_ID, pathway: 'ceiling' });
  });

  it('asks for the code when the recorded completion is of another pathway', async () => {
    sessionStorage.setItem(
      `completion_status_${EXP_ID}`,
      JSON.stringify({ alreadyCompleted: true, completionPathway: 'complete', completionCode: 'C-1' }),
    );
    const api = mockApi({ [CODE_URL]: { status: 200, body: { code: 'X', pathway: 'ceiling', key: 'exitceiling' } } });
    setup(undefined, '/completion?pathway=ceiling');
    expect(await screen.findByText('X')).toBeInTheDocument();
    expect(api.calls.map((c) => c.key)).toEqual([CODE_URL]);
    expect(api.calls[0]?.url).toContain('pathway=ceiling');
  });

  it('falls back to the query, then the stored status', async () => {
    const api = mockApi({ [CODE_URL]: { status: 200, body: { code: 'X', pathway: 'ceiling', key: 'exitceiling' } } });
    setup(undefined, '/completion?pathway=ceiling');
    await screen.findByText('X');
    expect(api.calls[0]?.url).toContain('pathway=ceiling');
  });

  it('uses the cached completion status when nothing else names the pathway', async () => {
    sessionStorage.setItem(
      `completion_status_${EXP_ID}`,
      JSON.stringify({ alreadyCompleted: true, completionPathway: 'complete', completionCode: null }),
    );
    const api = mockApi({ [CODE_URL]: { status: 200, body: { code: 'C-9', pathway: 'complete', key: 'complete' } } });
    setup();
    await screen.findByText('C-9');
    expect(api.calls.map((c) => c.url)).toEqual([`/api/experiments/${EXP_ID}/completion-code?pathway=complete`]);
  });

  it('shows NOT SET with the spec message and notice on 404', async () => {
    mockApi({
      [CODE_URL]: { status: 404, body: { error: 'not configured', code: 'CODE_NOT_CONFIGURED' } },
    });
    setup({ pathway: 'ceiling' });
    expect(await screen.findByText('NOT SET')).toBeInTheDocument();
    expect(
      screen.getByText('A completion code has not been configured for this pathway. Please contact the research team.'),
    ).toBeInTheDocument();
    expect(screen.getByText(/You may close this window/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Prolific/ })).toBeNull();
  });

  it('shows ERROR, not NOT SET, for an unknown experiment or an unearned pathway', async () => {
    mockApi({ [CODE_URL]: { status: 404, body: { error: 'Experiment not found', code: 'NOT_FOUND' } } });
    setup({ pathway: 'complete' });
    expect(await screen.findByText('ERROR')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Experiment not found');
  });

  it('shows ERROR with the reason when ids or the pathway are missing', async () => {
    mockApi({
      [`GET /api/participants/status/${EXP_ID}`]: {
        status: 200,
        body: { alreadyCompleted: false, completionPathway: null, completionCode: null },
      },
    });
    setup();
    expect(await screen.findByText('ERROR')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Could not determine the completion pathway.');
  });

  it('says when the experiment is unknown', async () => {
    mockApi({});
    loginAs();
    renderAt(<CompletionPage />, '/completion', '/completion', { pathway: 'confirm' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not determine the experiment.');
  });

  it('says when the participant is unknown', async () => {
    mockApi({});
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    renderAt(<CompletionPage />, '/completion', '/completion', { pathway: 'confirm' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not retrieve your participant ID.');
  });

  it('shows the copy-failure text when the browser refuses to copy', async () => {
    mockApi({ [CODE_URL]: { status: 200, body: { code: 'C-1', pathway: 'complete', key: 'complete' } } });
    setup({ pathway: 'complete' });
    await screen.findByText('C-1');
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: () => Promise.reject(new Error('denied')) },
    });
    document.execCommand = () => false;
    await user.click(screen.getByRole('button', { name: 'Copy Code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to copy code automatically. Please select and copy it manually.',
    );
  });

  it('marks the link opened, confirms, and Finish clears the flag, logs out and clears storage', async () => {
    const api = mockApi({
      [CODE_URL]: { status: 200, body: { code: 'C-1', pathway: 'complete', key: 'complete' } },
      'POST /api/auth/logout': { status: 200, body: { ok: true } },
    });
    setup({ pathway: 'complete' });
    await screen.findByText('C-1');
    const link = screen.getByRole('link', { name: /Submit code on Prolific/ });
    link.addEventListener('click', (event) => event.preventDefault());
    const user = userEvent.setup();
    await user.click(link);
    expect(sessionStorage.getItem('prolificLinkOpened')).toBe('true');
    expect(screen.getByRole('dialog', { name: 'Confirm Submission & Exit' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(link);
    await user.click(screen.getByRole('button', { name: 'Finish & Close Window' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/finished$/));
    expect(api.keys()).toContain('POST /api/auth/logout');
    expect(sessionStorage.length).toBe(0);
    expect(localStorage.length).toBe(0);
  });

  it("shows the study's own thanks and instructions when it has them, the spec's otherwise", async () => {
    mockApi({ [CODE_URL]: { status: 200, body: { code: 'C-9', pathway: 'complete', key: 'complete' } } });
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    const study = {
      ...builtInStudy,
      pages: { completion: { thanks: 'Thanks from the bedtime study.', instructions: 'Paste it into Prolific.' } },
    };
    renderAt(
      <Guarded study={study}>
        <CompletionPage />
      </Guarded>,
      '/completion?pathway=complete',
      '/completion',
    );
    expect(await screen.findByText('C-9')).toBeInTheDocument();
    expect(screen.getByText(/Thanks from the bedtime study\./)).toBeInTheDocument();
    expect(screen.getByText('Paste it into Prolific.')).toBeInTheDocument();
    expect(screen.queryByText(/Thank you for taking part in this study/)).toBeNull();
  });
});

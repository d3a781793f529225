import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { builtInStudy } from '../builtin-study';
import { EXP_ID, loginAs, mockApi, renderAt, Guarded } from '../test-support';
import { PostSurveyPage } from './PostSurveyPage';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const completed = { alreadyCompleted: true, completionPathway: 'complete', completionCode: 'C-1' };

describe('PostSurveyPage', () => {
  it('names the missing ids and offers no form', () => {
    mockApi({});
    renderAt(<PostSurveyPage />, '/post-survey');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Configuration error: Missing participant ID. Missing experiment ID. Cannot proceed.',
    );
    expect(screen.queryByRole('button', { name: 'Finish' })).toBeNull();
  });

  it('requires an answer before submitting', async () => {
    const api = mockApi({});
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    renderAt(<PostSurveyPage />, '/post-survey');
    expect(screen.getByRole('heading', { name: 'Last Step' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Finish' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please answer all required questions (*) before submitting.');
    expect(api.calls).toHaveLength(0);
  });

  it('reports a write that keeps failing after spaced retries, and records no completion', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = mockApi({
      'POST /api/surveys': { status: 503, body: { error: 'Service unavailable', code: 'INTERNAL' } },
    });
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    renderAt(<PostSurveyPage />, '/post-survey');
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    await user.click(screen.getByRole('radio', { name: '2' }));
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    expect(api.calls).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(api.calls).toHaveLength(2);
    expect(screen.queryByRole('alert')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(await screen.findByRole('alert')).toHaveTextContent('Service unavailable');
    expect(api.keys()).toEqual(['POST /api/surveys', 'POST /api/surveys', 'POST /api/surveys']);
    expect(sessionStorage.getItem('postSurveySubmitted')).toBeNull();
    expect(screen.getByRole('button', { name: 'Finish' })).toBeEnabled();
  });

  it('stores the answer first, then the code and completion, then goes to /completion', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    const api = mockApi({
      'POST /api/surveys': [{ status: 502 }, { status: 200, body: { id: EXP_ID, created: true } }],
      [`GET /api/experiments/${EXP_ID}/completion-code`]: {
        status: 200,
        body: { code: 'C-1', pathway: 'complete', key: 'complete' },
      },
      'POST /api/participants/completion': { status: 200, body: completed },
    });
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    renderAt(<PostSurveyPage />, '/post-survey');
    await user.click(screen.getByRole('radio', { name: '6' }));
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(await screen.findByText('Thank you! Your responses have been recorded. Redirecting...')).toBeInTheDocument();
    expect(api.keys()).toEqual([
      'POST /api/surveys',
      'POST /api/surveys',
      `GET /api/experiments/${EXP_ID}/completion-code`,
      'POST /api/participants/completion',
    ]);
    expect(api.calls[1]?.body).toMatchObject({ survey_type: 'post', responses: { post_intent: 6 } });
    expect(sessionStorage.getItem('postSurveySubmitted')).toBe('true');
    expect(sessionStorage.getItem('experimentCompleted')).toBe('true');
    expect(JSON.parse(sessionStorage.getItem(`completion_status_${EXP_ID}`) ?? '{}')).toMatchObject({
      alreadyCompleted: true,
      completionPathway: 'complete',
    });
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByTestId('location')).toHaveTextContent('/completion pathway=complete');
  });

  it("sends the answer under the study's own post key", async () => {
    const api = mockApi({
      'POST /api/surveys': { status: 400, body: { error: 'Stop here', code: 'VALIDATION_FAILED' } },
    });
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    const study = { ...builtInStudy, post: { ...builtInStudy.post, key: 'bedtime_after' } };
    renderAt(
      <Guarded study={study}>
        <PostSurveyPage />
      </Guarded>,
      '/post-survey',
    );
    await userEvent.click(screen.getByRole('radio', { name: '5' }));
    await userEvent.click(screen.getByRole('button', { name: 'Finish' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Stop here');
    expect(api.calls[0]?.body).toMatchObject({ survey_type: 'post', responses: { bedtime_after: 5 } });
  });

  it('marks the required intention question with an asterisk and a spoken "required" (issue 34)', () => {
    mockApi({});
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    renderAt(<PostSurveyPage />, '/post-survey');
    const group = screen.getByRole('group', { name: /\s*\(required\)$/ });
    expect(group.querySelector('legend [aria-hidden="true"]')).toHaveTextContent('*');
  });
});

import { QUOTA_FULL_TEXT } from '@studychat/contracts/web';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { builtInStudy } from '../builtin-study';
import type { PageStudy } from '../study-context';
import { PLACES_TAKEN_TITLE } from '../PlacesTaken';
import { assignment, EXP_ID, journey, loginAs, mockApi, renderAt, Guarded } from '../test-support';
import { freshJourney } from '../participant-store';
import { PreSurveyPage } from './PreSurveyPage';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function setup() {
  loginAs();
  sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
  sessionStorage.setItem('baselineIntention', '3');
  renderAt(<PreSurveyPage />, '/pre-survey');
}

async function answerAll() {
  const user = userEvent.setup({ advanceTimers: (ms) => (vi.isFakeTimers() ? vi.advanceTimersByTime(ms) : undefined) });
  const submit = screen.getByRole('button', { name: 'Submit Survey' });
  expect(submit).toBeDisabled();
  await user.click(screen.getByRole('radio', { name: '25-34' }));
  const sexGroup = screen.getByRole('group', { name: /sex at birth/ });
  await user.click(within(sexGroup).getByRole('radio', { name: 'Prefer not to say' }));
  expect(submit).toBeDisabled();
  await user.click(screen.getByRole('radio', { name: 'Conservative' }));
  expect(submit).toBeEnabled();
  await user.click(submit);
}

describe('PreSurveyPage', () => {
  it('offers the spec options and assigns a condition after the survey, then redirects', async () => {
    const api = mockApi({
      'POST /api/surveys': { status: 200, body: { id: EXP_ID, created: true } },
      'POST /api/participants': { status: 409, body: { error: 'exists', code: 'CONFLICT' } },
      [`GET /api/participants/11111111-1111-4111-8111-111111111111/${EXP_ID}`]: { status: 200, body: assignment() },
      'POST /api/participants/assign-condition': { status: 200, body: assignment({ assigned_condition: 'mmr' }) },
    });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    setup();
    for (const age of ['18-24', '25-34', '35-44', '45-54', '55-64', '65+']) {
      expect(screen.getByRole('radio', { name: age })).toBeInTheDocument();
    }
    expect(screen.getByRole('group', { name: /sex at birth/ })).toBeInTheDocument();
    await answerAll();
    expect(await screen.findByText('Thank you! Redirecting...')).toBeInTheDocument();
    expect(sessionStorage.getItem('assignedCondition')).toBe('mmr');
    expect(sessionStorage.getItem('preSurveySubmitted')).toBe('true');
    expect(api.calls[0]?.body).toMatchObject({
      survey_type: 'pre',
      responses: { age: '25-34', sex: 'prefer-not', political_leaning: 'conservative' },
    });
    // The survey's success shows the participation exists (the server takes it only at its step): nothing else is asked.
    expect(api.keys()).toEqual(['POST /api/surveys', 'POST /api/participants/assign-condition']);
    expect(screen.queryByTestId('location')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByTestId('location')).toHaveTextContent(`/experiment/${EXP_ID}/static-intro`);
  });

  it('shows the server message and clears preSurveySubmitted when assignment fails', async () => {
    mockApi({
      'POST /api/surveys': { status: 200, body: { id: EXP_ID, created: true } },
      'POST /api/participants': { status: 201, body: assignment() },
      'POST /api/participants/assign-condition': {
        status: 409,
        body: { error: 'Many participants are being assigned at this moment. Please try again.', code: 'CONFLICT' },
      },
    });
    sessionStorage.setItem('preSurveySubmitted', 'true');
    setup();
    await answerAll();
    expect(await screen.findByRole('alert')).toHaveTextContent('Many participants are being assigned');
    expect(sessionStorage.getItem('preSurveySubmitted')).toBeNull();
    expect(screen.getByRole('button', { name: 'Submit Survey' })).toBeEnabled();
  });

  it('shows a page of its own, with nothing to submit again, when every place is taken (409 QUOTA_FULL)', async () => {
    mockApi({
      'POST /api/surveys': { status: 200, body: { id: EXP_ID, created: true } },
      'POST /api/participants/assign-condition': {
        status: 409,
        body: { error: QUOTA_FULL_TEXT, code: 'QUOTA_FULL' },
      },
    });
    setup();
    await answerAll();
    expect(await screen.findByRole('heading', { name: PLACES_TAKEN_TITLE })).toBeInTheDocument();
    expect(screen.getByTestId('places-taken')).toHaveTextContent(QUOTA_FULL_TEXT);
    expect(screen.queryByRole('button', { name: 'Submit Survey' })).toBeNull();
    expect(sessionStorage.getItem('preSurveySubmitted')).toBeNull();
  });

  it('rejects an assignment reply without a condition', async () => {
    mockApi({
      'POST /api/surveys': { status: 200, body: { id: EXP_ID, created: true } },
      'POST /api/participants': { status: 201, body: assignment() },
      'POST /api/participants/assign-condition': { status: 200, body: assignment({ assigned_condition: null }) },
    });
    setup();
    await answerAll();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Invalid response received from server when assigning condition.',
    );
    expect(sessionStorage.getItem('assignedCondition')).toBeNull();
  });

  it("renders another study's questions from its definition and sends its keys (an optional one may stay empty)", async () => {
    const api = mockApi({
      // No participation on the server yet: it is created, the baseline repeated under the study's key, the survey sent again.
      'POST /api/surveys': [
        { status: 404, body: { error: 'No participation found', code: 'NOT_FOUND' } },
        { status: 200, body: { id: EXP_ID, created: true } },
      ],
      'POST /api/participants': { status: 201, body: assignment() },
      'POST /api/participants/assign-condition': { status: 200, body: assignment({ assigned_condition: 'control' }) },
    });
    const study: PageStudy = {
      ...builtInStudy,
      baseline: { ...builtInStudy.baseline, key: 'bedtime_intention' },
      pre: {
        title: 'About your family',
        intro: 'Two short questions.',
        questions: [
          {
            key: 'children',
            wording: 'How many children under 5 live with you?',
            type: 'choice',
            options: [
              { value: '1', label: 'One' },
              { value: '2+', label: 'Two or more' },
            ],
            required: true,
          },
          {
            key: 'sleep_worry',
            wording: 'How much do you worry about sleep?',
            type: 'scale',
            labels: { min: 'Not at all', mid: 'Somewhat', max: 'A great deal' },
            required: false,
          },
        ],
      },
    };
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    sessionStorage.setItem('baselineIntention', '3');
    renderAt(
      <Guarded study={study}>
        <PreSurveyPage />
      </Guarded>,
      '/pre-survey',
    );
    expect(screen.getByRole('heading', { name: 'About your family' })).toBeInTheDocument();
    expect(screen.getByText(/Two short questions\./)).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: '25-34' })).toBeNull();
    const submit = screen.getByRole('button', { name: 'Submit Survey' });
    expect(submit).toBeDisabled();
    await userEvent.setup().click(screen.getByRole('radio', { name: 'Two or more' }));
    expect(submit).toBeEnabled();
    await userEvent.setup().click(submit);
    expect(await screen.findByText('Thank you! Redirecting...')).toBeInTheDocument();
    expect(api.calls.find((c) => c.key === 'POST /api/surveys')?.body).toMatchObject({
      survey_type: 'pre',
      responses: { children: '2+' },
    });
    expect(api.calls.filter((c) => c.key === 'POST /api/surveys').map((c) => c.body)).toContainEqual(
      expect.objectContaining({ survey_type: 'baseline', responses: { bedtime_intention: '3' } }),
    );
    expect(api.keys()).toEqual([
      'POST /api/surveys',
      'POST /api/participants',
      'POST /api/surveys',
      'POST /api/surveys',
      'POST /api/participants/assign-condition',
    ]);
  });

  it("asks for the server's journey again when the server has the participant at another step", async () => {
    const api = mockApi({
      'POST /api/surveys': {
        status: 409,
        body: { error: 'This step is not open yet.', code: 'STEP_OUT_OF_ORDER', step: 'consent' },
      },
      [`GET /api/participants/journey/${EXP_ID}`]: { status: 200, body: journey({ step: 'consent' }) },
    });
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    renderAt(
      <Guarded>
        <PreSurveyPage />
      </Guarded>,
      '/pre-survey',
    );
    await answerAll();
    await vi.waitFor(() =>
      expect(api.keys()).toEqual(['POST /api/surveys', `GET /api/participants/journey/${EXP_ID}`]),
    );
    expect(freshJourney(EXP_ID)?.step).toBe('consent');
    expect(sessionStorage.getItem('preSurveySubmitted')).toBeNull();
  });

  it('marks every required question, a scale one too, with an asterisk and a spoken "required" (issue 34)', () => {
    mockApi({});
    const study: PageStudy = {
      ...builtInStudy,
      pre: {
        title: 'About you',
        intro: 'Two questions.',
        questions: [
          {
            key: 'worry',
            wording: 'How much do you worry?',
            type: 'scale',
            labels: { min: 'Not at all', mid: 'Somewhat', max: 'A great deal' },
            required: true,
          },
          {
            key: 'sleep',
            wording: 'How well do you sleep?',
            type: 'scale',
            labels: { min: 'Badly', mid: 'So so', max: 'Well' },
            required: false,
          },
        ],
      },
    };
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    sessionStorage.setItem('baselineIntention', '3');
    renderAt(
      <Guarded study={study}>
        <PreSurveyPage />
      </Guarded>,
      '/pre-survey',
    );
    const required = screen.getByRole('group', { name: /^How much do you worry\?\s*\(required\)$/ });
    expect(required.querySelector('legend [aria-hidden="true"]')).toHaveTextContent('*');
    expect(screen.getByRole('group', { name: 'How well do you sleep?' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit Survey' })).toBeDisabled();
  });

  it('marks each of the built-in questions as required', () => {
    mockApi({});
    setup();
    const groups = screen.getAllByRole('group');
    expect(groups).toHaveLength(builtInStudy.pre.questions.length);
    for (const group of groups) expect(group).toHaveAccessibleName(/\s*\(required\)$/);
  });
});

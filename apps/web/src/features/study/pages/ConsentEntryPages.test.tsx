import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { freshJourney } from '../participant-store';
import { assignment, EXP_ID, journey, loginAs, mockApi, renderAt } from '../test-support';
import { ConsentPage } from './ConsentPage';
import { EntryPage } from './EntryPage';

afterEach(() => vi.unstubAllGlobals());

describe('ConsentPage', () => {
  it('shows the configuration error without an experiment id', () => {
    mockApi({});
    loginAs();
    renderAt(<ConsentPage />, '/consent');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Configuration error: Experiment ID missing. Please return to Prolific.',
    );
    expect(screen.queryByRole('button', { name: 'I Consent' })).toBeNull();
  });

  it("records consent, sets the flag and goes to /entry, handing the reply's journey to its guard", async () => {
    const atEntry = journey({ step: 'entry', done: { ...journey().done, consent: true } });
    const api = mockApi({
      'POST /api/participants/consent': { status: 200, body: { ...assignment(), journey: atEntry } },
    });
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    renderAt(<ConsentPage />, '/consent');
    expect(screen.getByRole('heading', { name: 'Purpose of the study' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'I Consent' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/entry'));
    expect(api.calls[0]?.body).toEqual({ experimentId: EXP_ID });
    expect(sessionStorage.getItem('consentGiven')).toBe('true');
    expect(freshJourney(EXP_ID)).toEqual(atEntry);
  });

  it('says so when consent cannot be recorded, and lets the participant try again', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockApi({ 'POST /api/participants/consent': { status: 404, body: { error: 'Not found', code: 'NOT_FOUND' } } });
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    renderAt(<ConsentPage />, '/consent');
    await userEvent.click(screen.getByRole('button', { name: 'I Consent' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to record your consent. Please try again or contact support.',
    );
    expect(sessionStorage.getItem('consentGiven')).toBeNull();
    expect(screen.getByRole('button', { name: 'I Consent' })).toBeEnabled();
  });
});

describe('EntryPage', () => {
  function setup() {
    loginAs();
    sessionStorage.setItem('EXPERIMENT_ID', EXP_ID);
    renderAt(<EntryPage />, '/entry');
  }

  it('questions: records the entry survey and goes to the baseline question', async () => {
    const api = mockApi({ 'POST /api/surveys': { status: 200, body: { id: EXP_ID, created: true } } });
    setup();
    expect(screen.getByRole('heading', { name: 'Appointment Reminder' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'I have questions or concerns about MMR' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/baseline-intention'));
    expect(api.calls[0]?.body).toMatchObject({ survey_type: 'entry', responses: { choice: 'questions' } });
    expect(sessionStorage.getItem('entrySubmitted')).toBe('true');
    expect(sessionStorage.getItem('clicked_questions')).toBe('1');
  });

  it('confirm: records the survey and completion (confirm), caches the status and goes to /completion', async () => {
    const api = mockApi({
      'POST /api/surveys': { status: 200, body: { id: EXP_ID, created: true } },
      'POST /api/participants/completion': {
        status: 200,
        body: { alreadyCompleted: true, completionPathway: 'confirm', completionCode: 'NQ-1' },
      },
    });
    setup();
    await userEvent.click(screen.getByRole('button', { name: 'No concerns about the MMR vaccine' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/completion pathway=confirm'));
    expect(api.keys()).toEqual(['POST /api/surveys', 'POST /api/participants/completion']);
    expect(api.calls[1]?.body).toEqual({ experimentId: EXP_ID, pathway: 'confirm' });
    expect(sessionStorage.getItem('clicked_questions')).toBe('0');
    expect(JSON.parse(sessionStorage.getItem(`completion_status_${EXP_ID}`) ?? '{}')).toMatchObject({
      alreadyCompleted: true,
      completionPathway: 'confirm',
    });
  });

  it('carries on when the entry survey fails (only logged)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockApi({ 'POST /api/surveys': { status: 503, body: { error: 'down', code: 'INTERNAL' } } });
    setup();
    await userEvent.click(screen.getByRole('button', { name: 'I have questions or concerns about MMR' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/baseline-intention'));
    expect(warn).toHaveBeenCalled();
  });
});

import { QUOTA_FULL_TEXT } from '@studychat/contracts/web';
import { PLACES_TAKEN_TITLE } from '../PlacesTaken';
import type { FlowStepView, FlowView } from '@studychat/contracts/web';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXP_ID, loginAs, mockApi } from '../test-support';
import { FlowPage } from './FlowPage';

afterEach(() => {
  vi.unstubAllGlobals();
});

const VIEW_URL = `/api/participants/flow/${EXP_ID}`;
const stepUrl = (id: string, generate = false) => `POST ${VIEW_URL}/steps/${id}${generate ? '/generate' : ''}`;

function view(step: FlowStepView, overrides: Partial<FlowView> = {}): FlowView {
  return {
    experimentId: EXP_ID,
    studyTitle: 'A flow',
    texts: { welcome: 'Welcome', disclaimer: 'Only a test study, nothing more.' },
    step,
    position: 2,
    total: 5,
    condition: null,
    pathway: null,
    completed: false,
    serverTime: '2026-11-28T10:00:00.000Z',
    ...overrides,
  };
}

const questions: FlowStepView = {
  id: 'about',
  type: 'questions',
  title: 'About you',
  intro: 'A few questions.',
  button: 'Continue',
  questions: [
    { key: 'age', text: 'Your age?', required: true, type: 'number', min: 18, max: 99, integer: true },
    { key: 'why', text: 'Why?', required: false, type: 'text', minChars: 0, maxChars: 100, multiline: true },
  ],
};

describe('FlowPage', () => {
  it("shows the server's step in the study's words, with its progress and the study's own disclaimer", async () => {
    loginAs();
    mockApi({ [`GET ${VIEW_URL}`]: { status: 200, body: view(questions) } });
    render(<FlowPage experimentId={EXP_ID} />);
    expect(await screen.findByRole('heading', { name: 'About you' })).toBeInTheDocument();
    expect(screen.getByText('Step 2 of 5')).toBeInTheDocument();
    expect(screen.getByText('Only a test study, nothing more.')).toBeInTheDocument();
    expect(screen.queryByText(/does not provide medical advice/)).toBeNull();
  });

  it('checks the answers before sending, then shows what the server refused under its question', async () => {
    loginAs();
    const api = mockApi({
      [`GET ${VIEW_URL}`]: { status: 200, body: view(questions) },
      [stepUrl('about')]: {
        status: 400,
        body: {
          error: 'age: Please enter a number of at most 99.',
          code: 'ANSWERS_INVALID',
          issues: [{ path: 'age', message: 'Please enter a number of at most 99.' }],
        },
      },
    });
    render(<FlowPage experimentId={EXP_ID} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(screen.getByText('Please answer this question.')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.key.startsWith('POST'))).toHaveLength(0);
    await userEvent.type(screen.getByRole('spinbutton', { name: /Your age/ }), '42');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findAllByText('Please enter a number of at most 99.')).not.toHaveLength(0);
    expect(api.calls.find((c) => c.key === stepUrl('about'))?.body).toEqual({ answers: { age: 42 } });
  });

  it('moves to the step the write answers with, and follows the server when another device moved on', async () => {
    loginAs();
    const page: FlowStepView = {
      id: 'welcome',
      type: 'page',
      title: 'Welcome',
      blocks: [{ paragraphs: ['Hello there.'] }],
      button: 'Next',
      consent: false,
      remainingSeconds: 0,
    };
    mockApi({
      [`GET ${VIEW_URL}`]: [
        { status: 200, body: view(page) },
        { status: 200, body: view(questions, { position: 3 }) },
      ],
      [stepUrl('welcome')]: {
        status: 409,
        body: { error: 'Not the next step', code: 'STEP_OUT_OF_ORDER', flowStep: 'about' },
      },
    });
    render(<FlowPage experimentId={EXP_ID} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('heading', { name: 'About you' })).toBeInTheDocument();
    expect(screen.getByText('Step 3 of 5')).toBeInTheDocument();
  });

  it("keeps a page's button until its minimum time has passed", async () => {
    loginAs();
    const page: FlowStepView = {
      id: 'read',
      type: 'page',
      title: 'Please read',
      blocks: [{ paragraphs: ['Text.'] }],
      button: 'Next',
      consent: false,
      remainingSeconds: 30,
    };
    mockApi({ [`GET ${VIEW_URL}`]: { status: 200, body: view(page) } });
    render(<FlowPage experimentId={EXP_ID} />);
    expect(await screen.findByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getByText('You can continue in 30 s.')).toBeInTheDocument();
  });

  it('asks for the AI text once, lets the participant correct it, and sends the correction', async () => {
    loginAs();
    const aiText: FlowStepView = {
      id: 'summary',
      type: 'ai_text',
      title: 'Your belief',
      instructions: 'Confirm or correct.',
      allowCorrection: true,
      maxChars: 200,
      confirmLabel: 'This is my belief',
      generated: null,
    };
    const api = mockApi({
      [`GET ${VIEW_URL}`]: { status: 200, body: view(aiText) },
      [stepUrl('summary', true)]: {
        status: 200,
        body: { stepId: 'summary', text: 'I believe X.', generatedAt: '2026-11-28T10:00:00.000Z' },
      },
      [stepUrl('summary')]: { status: 200, body: view(questions) },
    });
    render(<FlowPage experimentId={EXP_ID} />);
    const box = await screen.findByRole('textbox', { name: /The text/ });
    expect(box).toHaveValue('I believe X.');
    await userEvent.clear(box);
    await userEvent.type(box, 'I believe Y.');
    await userEvent.click(screen.getByRole('button', { name: 'This is my belief' }));
    expect(await screen.findByRole('heading', { name: 'About you' })).toBeInTheDocument();
    expect(api.keys().filter((k) => k === stepUrl('summary', true))).toHaveLength(1);
    expect(api.calls.find((c) => c.key === stepUrl('summary'))?.body).toEqual({ text: 'I believe Y.' });
  });

  it('records the ending on arrival and shows its code; a failed recording offers to try again', async () => {
    loginAs();
    const end: FlowStepView = {
      id: 'done',
      type: 'end',
      title: 'Thank you!',
      blocks: [{ paragraphs: ['All done.'] }],
      pathway: 'complete',
      code: 'CODE-1',
    };
    mockApi({
      [`GET ${VIEW_URL}`]: { status: 200, body: view({ ...end, code: null }, { pathway: 'complete' }) },
      [stepUrl('done')]: [
        { status: 503, body: { error: 'The service is busy.', code: 'DATABASE_UNAVAILABLE' } },
        { status: 200, body: view(end, { completed: true, pathway: 'complete' }) },
      ],
    });
    render(<FlowPage experimentId={EXP_ID} />);
    expect(await screen.findByText('The service is busy.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('CODE-1')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Submit code on Prolific/ })).toHaveAttribute(
      'href',
      'https://app.prolific.com/submissions/complete?cc=CODE-1',
    );
  });

  it('says every place is taken, with nothing to try again, when the randomisation finds none (409 QUOTA_FULL)', async () => {
    loginAs();
    const randomise: FlowStepView = { id: 'assign', type: 'randomise', title: 'Assigning' };
    mockApi({
      [`GET ${VIEW_URL}`]: { status: 200, body: view(randomise) },
      [stepUrl('assign')]: { status: 409, body: { error: QUOTA_FULL_TEXT, code: 'QUOTA_FULL' } },
    });
    render(<FlowPage experimentId={EXP_ID} />);
    expect(await screen.findByRole('heading', { name: PLACES_TAKEN_TITLE })).toBeInTheDocument();
    expect(screen.getByTestId('places-taken')).toHaveTextContent(QUOTA_FULL_TEXT);
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('offers to try again when the page cannot be read', async () => {
    loginAs();
    mockApi({
      [`GET ${VIEW_URL}`]: [
        { status: 503, body: { error: 'The database is not available.', code: 'DATABASE_UNAVAILABLE' } },
        { status: 200, body: view(questions) },
      ],
    });
    render(<FlowPage experimentId={EXP_ID} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'About you' })).toBeInTheDocument());
  });
});

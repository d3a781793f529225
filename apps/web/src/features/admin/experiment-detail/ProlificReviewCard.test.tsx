import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../test-utils';
import { ProlificReviewCard } from './ProlificReviewCard';

const ID = '77777777-7777-4777-8777-777777777777';
const URL = `/api/experiments/${ID}/prolific/approve`;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ProlificReviewCard', () => {
  it('approves the chosen pathway’s submissions and says how many', async () => {
    const calls = mockFetch({
      [`POST ${URL}`]: () => json(200, { approved: 2, submissionIds: ['S1', 'S2'] }),
    });
    const user = userEvent.setup();
    renderPage(<ProlificReviewCard experimentId={ID} />, { path: '/x', route: '/x' });
    await user.selectOptions(screen.getByLabelText('Pathway'), 'ceiling');
    await user.click(screen.getByRole('button', { name: 'Approve those awaiting review' }));
    expect(await screen.findByTestId('prolific-approved')).toHaveTextContent('Approved 2 submissions on Prolific.');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ pathway: 'ceiling' });
  });

  it('shows the server’s message when Prolific is not connected', async () => {
    mockFetch({
      [`POST ${URL}`]: () => json(409, { error: 'Set a Prolific API token first.', code: 'PROLIFIC_NOT_CONFIGURED' }),
    });
    const user = userEvent.setup();
    renderPage(<ProlificReviewCard experimentId={ID} />, { path: '/x', route: '/x' });
    await user.click(screen.getByRole('button', { name: 'Approve those awaiting review' }));
    expect(await screen.findByText('Set a Prolific API token first.')).toBeInTheDocument();
  });
});

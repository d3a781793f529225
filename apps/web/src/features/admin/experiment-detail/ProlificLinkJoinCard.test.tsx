import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../test-utils';
import { ProlificLinkJoinCard } from './ProlificLinkJoinCard';

const ID = '77777777-7777-4777-8777-777777777777';
const URL = `/api/experiments/${ID}/prolific-link-join`;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ProlificLinkJoinCard', () => {
  it('explains the choice and its risks, and turns joining by the link on and off', async () => {
    const calls = mockFetch({
      [`GET ${URL}`]: () => json(200, { experimentId: ID, enabled: false }),
      [`PUT ${URL}`]: (call) => json(200, { experimentId: ID, enabled: (call.body as { enabled: boolean }).enabled }),
    });
    const user = userEvent.setup();
    renderPage(<ProlificLinkJoinCard experimentId={ID} />, { path: '/x', route: '/x' });
    expect(await screen.findByTestId('prolific-link-join')).toHaveTextContent('With a study login (the default)');
    expect(screen.getByText(/the link itself is the key/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Let participants join by the link alone' }));
    await waitFor(() => expect(screen.getByTestId('prolific-link-join')).toHaveTextContent('By the study link alone'));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ enabled: true });
    await user.click(screen.getByRole('button', { name: 'Require a study login again' }));
    await waitFor(() => expect(screen.getByTestId('prolific-link-join')).toHaveTextContent('With a study login'));
    expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({ enabled: false });
  });
});

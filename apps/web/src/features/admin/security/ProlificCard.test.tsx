import type { ProlificConnection } from '@studychat/contracts/web';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../test-utils';
import { ProlificCard } from './ProlificCard';

const URL = '/api/admin/prolific';
const state = (over: Partial<ProlificConnection> = {}): ProlificConnection => ({
  tokenSet: false,
  webhookSecretSet: false,
  updatedAt: null,
  webhookPath: '/api/prolific/webhooks',
  ...over,
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ProlificCard', () => {
  it('sets the token and secret, empties the fields, and tests the connection', async () => {
    const connected = state({ tokenSet: true, webhookSecretSet: true, updatedAt: '2026-11-20T10:00:00.000Z' });
    const calls = mockFetch({
      [`GET ${URL}`]: () => json(200, state()),
      [`PUT ${URL}`]: () => json(200, connected),
      [`POST ${URL}/test`]: () => json(200, { ok: true, accountId: 'acc123', email: 'lab@example.org' }),
    });
    const user = userEvent.setup();
    renderPage(<ProlificCard />, { path: '/x', route: '/x' });
    expect(await screen.findByTestId('prolific-state')).toHaveTextContent('Not connected');
    expect(screen.getByRole('button', { name: 'Test connection' })).toBeDisabled();
    await user.type(screen.getByLabelText('API token'), 'tok-0123456789');
    await user.type(screen.getByLabelText('Webhook secret'), 'sec-0123456789');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('prolific-state')).toHaveTextContent('Connected'));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      apiToken: 'tok-0123456789',
      webhookSecret: 'sec-0123456789',
    });
    expect(screen.getByLabelText('API token')).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText(/Prolific accepted the token: account acc123/)).toBeInTheDocument();
  });

  it("shows Prolific's refusal of the token", async () => {
    mockFetch({
      [`GET ${URL}`]: () => json(200, state({ tokenSet: true })),
      [`POST ${URL}/test`]: () =>
        json(400, {
          error: 'Prolific refused the API token (check it, or create a new one)',
          code: 'PROLIFIC_TOKEN_REJECTED',
        }),
    });
    const user = userEvent.setup();
    renderPage(<ProlificCard />, { path: '/x', route: '/x' });
    await user.click(await screen.findByRole('button', { name: 'Test connection' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Prolific refused the API token');
  });
});

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../test-utils';
import { ProlificStudyCard } from './ProlificStudyCard';

const ID = '77777777-7777-4777-8777-777777777777';
const URL = `/api/experiments/${ID}/prolific-study`;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ProlificStudyCard', () => {
  it('links a Prolific study and unlinks it', async () => {
    const calls = mockFetch({
      [`GET ${URL}`]: () => json(200, { experimentId: ID, studyId: null }),
      [`PUT ${URL}`]: (call) =>
        json(200, { experimentId: ID, studyId: (call.body as { studyId: string | null }).studyId }),
    });
    const user = userEvent.setup();
    renderPage(<ProlificStudyCard experimentId={ID} />, { path: '/x', route: '/x' });
    expect(await screen.findByTestId('prolific-study')).toHaveTextContent('Not linked');
    await user.type(screen.getByLabelText('Prolific study ID'), ' 60aca280709ee40ec37d4885 ');
    await user.click(screen.getByRole('button', { name: 'Link' }));
    await waitFor(() => expect(screen.getByTestId('prolific-study')).toHaveTextContent('60aca280709ee40ec37d4885'));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ studyId: '60aca280709ee40ec37d4885' });
    await user.click(screen.getByRole('button', { name: 'Unlink' }));
    await waitFor(() => expect(screen.getByTestId('prolific-study')).toHaveTextContent('Not linked'));
    expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({ studyId: null });
  });
});

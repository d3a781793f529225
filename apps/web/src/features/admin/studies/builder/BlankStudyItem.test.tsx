import { flowProblems, type FlowDefinition } from '@studychat/contracts/web';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../../test-utils';
import { StudiesPage } from '../StudiesPage';
import { blankFlow } from './defaults';
import { flowVersion } from './flow-fixture';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Blank study', () => {
  it('creates a draft holding the blank flow through the create route', async () => {
    const calls = mockFetch({
      'GET /api/admin/study-versions': () => json(200, []),
      'POST /api/admin/study-versions': () => json(201, flowVersion(blankFlow())),
    });
    const user = userEvent.setup();
    renderPage(<StudiesPage />, { path: '/admin/studies', route: '/admin/studies' });
    await user.click(await screen.findByRole('button', { name: 'Start a blank study' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const sent = calls.find((c) => c.method === 'POST')?.body as { label: string; definition: FlowDefinition };
    expect(sent.label).toBe('New study');
    expect(sent.definition).toEqual(blankFlow());
    expect(flowProblems(sent.definition)).toEqual([]);
  });
});

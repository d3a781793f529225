import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../test-utils';
import { WaveSettingCard } from './WaveSettingCard';

// Follow-up waves (docs/decisions/0091): the card sets which experiment this one follows and makes the Prolific
// participant group of its completers; a fixed setting offers no change.

const ID = '11111111-1111-4111-8111-111111111111';
const FIRST = '22222222-2222-4222-8222-222222222222';
const experiments = [
  { id: ID, name: 'Wave 2' },
  { id: FIRST, name: 'Wave 1' },
];
const checklist = {
  ok: false,
  items: [],
  pathways: [
    { key: 'complete', label: 'Completed the study', code: 'C1' },
    { key: 'confirm', label: 'Exit: no qualms', code: 'C2' },
  ],
  usesLogins: true,
  launch: null,
};

function routes(overrides: Record<string, Parameters<typeof mockFetch>[0][string]> = {}) {
  return mockFetch({
    [`GET /api/experiments/${ID}/wave`]: () => json(200, { follows: null, followedBy: [], locked: false }),
    'GET /api/experiments': () => json(200, experiments),
    [`GET /api/experiments/${ID}/prolific/participant-group`]: () => json(200, { group: null }),
    [`GET /api/experiments/${ID}/prolific/checklist`]: () => json(200, checklist),
    ...overrides,
  });
}

describe('WaveSettingCard', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sets the experiment it follows, offering every other experiment but itself', async () => {
    const calls = routes({
      [`PUT /api/experiments/${ID}/wave`]: () =>
        json(200, { follows: { id: FIRST, name: 'Wave 1' }, followedBy: [], locked: false }),
    });
    renderPage(<WaveSettingCard experimentId={ID} />, { path: '/x', route: '/x' });
    expect(await screen.findByTestId('wave-follows')).toHaveTextContent('follows no other');
    const select = screen.getByLabelText('Follows');
    await waitFor(() => expect(screen.getByRole('option', { name: 'Wave 1' })).toBeInTheDocument());
    expect(screen.queryByRole('option', { name: 'Wave 2' })).toBeNull();
    const user = userEvent.setup();
    await user.selectOptions(select, FIRST);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByTestId('wave-follows')).toHaveTextContent('This experiment follows "Wave 1".');
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ follows_experiment_id: FIRST });
  });

  it('offers no change once participants joined, and shows the server refusal of a change', async () => {
    routes({
      [`GET /api/experiments/${ID}/wave`]: () =>
        json(200, { follows: { id: FIRST, name: 'Wave 1' }, followedBy: [], locked: true }),
    });
    renderPage(<WaveSettingCard experimentId={ID} />, { path: '/x', route: '/x' });
    expect(await screen.findByText(/can no longer change/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Follows')).toBeNull();
  });

  it('makes the participant group of the chosen pathways, then offers to add to it', async () => {
    const group = {
      groupId: 'G1',
      name: 'Completers',
      workspaceId: 'WS1',
      participants: 3,
      updatedAt: '2026-11-28T10:00:00.000Z',
    };
    const calls = routes({
      [`POST /api/experiments/${ID}/prolific/participant-group`]: () => json(200, { group, added: 3 }),
    });
    renderPage(<WaveSettingCard experimentId={ID} />, { path: '/x', route: '/x' });
    const user = userEvent.setup();
    const make = await screen.findByRole('button', { name: 'Make the participant group' });
    expect(make).toBeDisabled();
    await user.type(screen.getByLabelText('Group name'), 'Completers');
    await user.type(screen.getByLabelText('Prolific workspace ID'), 'WS1');
    await user.click(await screen.findByLabelText('Completed the study (complete)'));
    await user.click(make);
    expect(await screen.findByText('Sent 3 new participants to the group on Prolific.')).toBeInTheDocument();
    expect(screen.getByTestId('participant-group')).toHaveTextContent('Group "Completers" (G1): 3 participants sent.');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Completers',
      workspace_id: 'WS1',
      pathways: ['complete'],
    });
    expect(screen.getByRole('button', { name: 'Add the completers to the group' })).toBeInTheDocument();
  });
});

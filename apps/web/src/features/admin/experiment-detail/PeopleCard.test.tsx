import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../test-utils';
import { PeopleCard } from './PeopleCard';

const ID = '77777777-7777-4777-8777-777777777777';
const URL = `/api/experiments/${ID}/members`;
const OWNER = '11111111-1111-4111-8111-111111111111';
const ANA = '22222222-2222-4222-8222-222222222222';
const at = '2026-11-28T10:00:00.000Z';
const owner = {
  user_id: OWNER,
  email: 'owner@lab.test',
  role: 'owner',
  account_role: 'admin',
  added_by: OWNER,
  created_at: at,
};
const ana = {
  user_id: ANA,
  email: 'ana@lab.test',
  role: 'viewer',
  account_role: 'analyst',
  added_by: OWNER,
  created_at: at,
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('PeopleCard', () => {
  it('lets the owner add a person and change a role', async () => {
    const calls = mockFetch({
      [`GET ${URL}`]: () => json(200, { lab_wide: false, your_role: 'owner', members: [owner] }),
      [`POST ${URL}`]: () => json(201, { lab_wide: false, your_role: 'owner', members: [owner, ana] }),
      [`PUT ${URL}/${ANA}`]: () =>
        json(200, { lab_wide: false, your_role: 'owner', members: [owner, { ...ana, role: 'owner' }] }),
    });
    const user = userEvent.setup();
    renderPage(<PeopleCard experimentId={ID} />, { path: '/x', route: '/x' });
    expect(await screen.findByTestId('people-summary')).toHaveTextContent('You are owner');
    await user.type(screen.getByLabelText('Email of an admin or analyst'), 'ana@lab.test');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByRole('status')).toHaveTextContent('ana@lab.test was added as viewer.');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ email: 'ana@lab.test', role: 'viewer' });
    const list = screen.getByRole('list', { name: 'People on this experiment' });
    expect(within(list).getAllByTestId('member-row')).toHaveLength(2);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Role of ana@lab.test' }), 'owner');
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ role: 'owner' }));
  });

  it('shows the people to a viewer without ways to change them', async () => {
    mockFetch({ [`GET ${URL}`]: () => json(200, { lab_wide: false, your_role: 'viewer', members: [owner, ana] }) });
    renderPage(<PeopleCard experimentId={ID} />, { path: '/x', route: '/x' });
    expect(await screen.findByTestId('people-summary')).toHaveTextContent('You are viewer');
    expect(screen.getAllByTestId('member-row')).toHaveLength(2);
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Remove/ })).toBeNull();
  });
});

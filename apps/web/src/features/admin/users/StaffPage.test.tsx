import type { StaffMember } from '@studychat/contracts/web';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentUser } from '../../../lib/session';
import { json, mockFetch, renderPage } from '../test-utils';
import { StaffPage } from './StaffPage';

afterEach(() => vi.unstubAllGlobals());

const ANALYST = 'bbbbbbbb-2222-4222-8222-222222222222';

function member(id: string, email: string, over: Partial<StaffMember> = {}): StaffMember {
  return {
    id,
    email,
    role: 'analyst',
    totp_enabled: false,
    created_at: '2026-11-01T10:00:00.000Z',
    last_login_at: null,
    ...over,
  };
}

/** Renders the page as an admin whose own row is in the list. */
function show(extra: Record<string, Parameters<typeof mockFetch>[0][string]> = {}, as: 'admin' | 'analyst' = 'admin') {
  const rows = () => [
    member(currentUser()?.userId ?? '', 'me@lab.test', { role: 'admin' }),
    member(ANALYST, 'ana@lab.test', { totp_enabled: true }),
  ];
  const calls = mockFetch({ 'GET /api/admin/staff': () => json(200, rows()), ...extra });
  renderPage(<StaffPage />, { path: '/admin/people', route: '/admin/people', as });
  return calls;
}

describe('StaffPage', () => {
  it('lists admins and analysts; one’s own row offers no change', async () => {
    show();
    const rows = await screen.findAllByTestId('staff-row');
    expect(rows).toHaveLength(2);
    const mine = rows[0] as HTMLElement;
    expect(within(mine).getByText('(you)')).toBeInTheDocument();
    expect(within(mine).queryByRole('button')).toBeNull();
    expect(within(mine).queryByRole('combobox')).toBeNull();
    const ana = rows[1] as HTMLElement;
    expect(within(ana).getByRole('combobox', { name: 'Role of ana@lab.test' })).toHaveValue('analyst');
    expect(within(ana).getByText('On')).toBeInTheDocument();
  });

  it('adds an analyst and shows the one-time password once', async () => {
    const calls = show({
      'POST /api/admin/staff': (call) =>
        json(201, {
          ...member('cccccccc-3333-4333-8333-333333333333', 'new@lab.test'),
          password: 'Pw-once-1234567890ab',
          ...(call.body as object),
        }),
    });
    const user = userEvent.setup();
    await screen.findAllByTestId('staff-row');
    await user.type(screen.getByLabelText('Email'), 'new@lab.test');
    await user.click(screen.getByRole('button', { name: 'Add account' }));
    expect(await screen.findByTestId('new-password')).toHaveTextContent('Pw-once-1234567890ab');
    expect(screen.getByText(/shown only now/)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ email: 'new@lab.test', role: 'analyst' });
    await user.click(screen.getByRole('button', { name: 'Done, hide the password' }));
    expect(screen.queryByTestId('new-password')).toBeNull();
  });

  it('shows the server’s refusal of an email in use', async () => {
    show({
      'POST /api/admin/staff': () => json(409, { error: 'An account with email x already exists', code: 'CONFLICT' }),
    });
    const user = userEvent.setup();
    await screen.findAllByTestId('staff-row');
    await user.type(screen.getByLabelText('Email'), 'x@lab.test');
    await user.click(screen.getByRole('button', { name: 'Add account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('already exists');
  });

  it('asks before removing, and removes only after the confirmation', async () => {
    const calls = show({ [`DELETE /api/admin/staff/${ANALYST}`]: () => json(200, { ok: true }) });
    const user = userEvent.setup();
    await screen.findAllByTestId('staff-row');
    await user.click(screen.getByRole('button', { name: 'Remove ana@lab.test' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove ana@lab.test?' });
    expect(dialog).toHaveTextContent(/logged out at once/);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Remove ana@lab.test' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove account' }));
    expect(await screen.findByText('ana@lab.test was removed.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([`/api/admin/staff/${ANALYST}`]);
  });

  it('changes a role after a confirmation that says they are logged out', async () => {
    const calls = show({
      [`PUT /api/admin/staff/${ANALYST}/role`]: () => json(200, member(ANALYST, 'ana@lab.test', { role: 'admin' })),
    });
    const user = userEvent.setup();
    await screen.findAllByTestId('staff-row');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Role of ana@lab.test' }), 'admin');
    const dialog = screen.getByRole('dialog', { name: 'Make ana@lab.test an admin?' });
    expect(dialog).toHaveTextContent(/logged out now/);
    await user.click(within(dialog).getByRole('button', { name: 'Make admin' }));
    expect(await screen.findByText('ana@lab.test is now an admin.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ role: 'admin' });
  });

  it('resets another’s two-factor after a confirmation, and shows a refusal', async () => {
    show({
      [`POST /api/admin/staff/${ANALYST}/totp-reset`]: () =>
        json(409, { error: 'This is the last admin account', code: 'LAST_ADMIN' }),
    });
    const user = userEvent.setup();
    await screen.findAllByTestId('staff-row');
    await user.click(screen.getByRole('button', { name: 'Reset two-factor of ana@lab.test' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Reset two-factor' }));
    await waitFor(() =>
      expect(within(screen.getByRole('dialog')).getByRole('alert')).toHaveTextContent('last admin account'),
    );
  });

  it('tells an analyst that only admins manage people, without asking the server', async () => {
    const calls = show({}, 'analyst');
    expect(screen.getByText('Only admins manage the people of the admin area.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});

import type { AdminUser } from '@studychat/contracts/web';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../test-utils';
import { UsersPage } from './UsersPage';

const users: AdminUser[] = [
  {
    id: 'aaaaaaaa-1111-4111-8111-111111111111',
    email: 'admin@lab.example',
    created_at: '2026-11-01T10:00:00.000Z',
    updated_at: '2026-11-01T10:00:00.000Z',
    last_login_at: '2026-11-02T10:00:00.000Z',
    is_admin: true,
    is_test: false,
    metadata: null,
  },
  {
    id: 'bbbbbbbb-2222-4222-8222-222222222222',
    email: 'p1@study.example',
    created_at: '2026-11-03T10:00:00.000Z',
    updated_at: '2026-11-03T10:00:00.000Z',
    last_login_at: null,
    is_admin: false,
    is_test: false,
    metadata: null,
  },
  {
    id: 'cccccccc-3333-4333-8333-333333333333',
    email: 'preview-ab12cd34-cccccccc@preview.invalid',
    created_at: '2026-11-02T10:00:00.000Z',
    updated_at: '2026-11-02T10:00:00.000Z',
    last_login_at: '2026-11-02T10:01:00.000Z',
    is_admin: false,
    is_test: true,
    metadata: { preview: true },
  },
];

afterEach(() => vi.unstubAllGlobals());

const show = () => renderPage(<UsersPage />, { path: '/admin/users', route: '/admin/users' });

describe('UsersPage', () => {
  it('loads created_at descending by default and shows the table with a count', async () => {
    const calls = mockFetch({ 'GET /api/admin/users': () => json(200, users) });
    show();
    expect(screen.getByText('Loading users...')).toBeInTheDocument();
    expect(await screen.findByText('3 users')).toBeInTheDocument();
    expect(calls[0]?.url).toBe('/api/admin/users?sortBy=created_at&order=desc');
    const link = screen.getByRole('link', { name: 'aaaaaaaa' });
    expect(link).toHaveAttribute('href', '/admin/user/aaaaaaaa-1111-4111-8111-111111111111');
    const participantRow = screen.getByText('p1@study.example').closest('tr');
    expect(participantRow).not.toBeNull();
    if (participantRow) {
      expect(within(participantRow).getByText('Never')).toBeInTheDocument();
      expect(within(participantRow).getByText('No')).toBeInTheDocument();
    }
    expect(screen.getByRole('link', { name: /Back to Dashboard/ })).toHaveAttribute('href', '/admin');
    // Only the preview's login carries the test marker.
    const markers = screen.getAllByTitle(/A preview's login, made by an admin/);
    expect(markers).toHaveLength(1);
    expect(markers[0]?.closest('tr')).toHaveTextContent('preview-ab12cd34-cccccccc@preview.invalid');
  });

  it('asks the server to sort: a new column starts ascending, the same column toggles', async () => {
    const calls = mockFetch({ 'GET /api/admin/users': () => json(200, users) });
    show();
    await screen.findByText('3 users');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Email/ }));
    await waitFor(() => expect(calls.at(-1)?.url).toBe('/api/admin/users?sortBy=email&order=asc'));
    expect(screen.getByRole('columnheader', { name: /Email/ })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(screen.getByRole('button', { name: /Email/ }));
    await waitFor(() => expect(calls.at(-1)?.url).toBe('/api/admin/users?sortBy=email&order=desc'));
    await user.click(screen.getByRole('button', { name: /Created At/ }));
    await waitFor(() => expect(calls.at(-1)?.url).toBe('/api/admin/users?sortBy=created_at&order=asc'));
  });

  it("shows 'No users found' for an empty list", async () => {
    mockFetch({ 'GET /api/admin/users': () => json(200, []) });
    show();
    expect(await screen.findByText('No users found')).toBeInTheDocument();
  });

  it('shows the spec error text when loading fails', async () => {
    mockFetch({ 'GET /api/admin/users': () => json(403, { error: 'Admin access required', code: 'FORBIDDEN' }) });
    show();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to load users. Please check your authorization.',
    );
  });

  it('links admins, not analysts, to the page that manages admins and analysts (issue 34)', async () => {
    mockFetch({ 'GET /api/admin/users': () => json(200, users) });
    show();
    await screen.findByText('3 users');
    expect(screen.getByRole('link', { name: 'Manage admins and analysts' })).toHaveAttribute('href', '/admin/people');
  });

  it('shows an analyst no link to manage people', async () => {
    mockFetch({ 'GET /api/admin/users': () => json(200, users) });
    renderPage(<UsersPage />, { path: '/admin/users', route: '/admin/users', as: 'analyst' });
    await screen.findByText('3 users');
    expect(screen.queryByRole('link', { name: 'Manage admins and analysts' })).toBeNull();
  });
});

import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from '../lib/router';
import { describe, expect, it } from 'vitest';
import { setToken } from '../lib/session';
import { RequireAdmin } from './guards';

function tokenWith(payload: object): string {
  return `h.${btoa(JSON.stringify(payload))}.s`;
}

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route
          path="/admin"
          element={
            <RequireAdmin>
              <p>admin page</p>
            </RequireAdmin>
          }
        />
        <Route path="/login" element={<p>login page</p>} />
        <Route path="/prolific" element={<p>prolific page</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('RequireAdmin', () => {
  it('sends an unauthenticated visitor to /login', () => {
    renderAt('/admin');
    expect(screen.getByText('login page')).toBeInTheDocument();
  });

  it('sends a participant to /prolific', () => {
    setToken(tokenWith({ userId: 'u', email: 'p@study.org', isAdmin: false }));
    renderAt('/admin');
    expect(screen.getByText('prolific page')).toBeInTheDocument();
  });

  it('lets an admin through', () => {
    setToken(tokenWith({ userId: 'u', email: 'a@lab.org', isAdmin: true }));
    renderAt('/admin');
    expect(screen.getByText('admin page')).toBeInTheDocument();
  });
});

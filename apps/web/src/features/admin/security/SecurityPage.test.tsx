import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../test-utils';
import { SecurityPage } from './SecurityPage';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const URL = `otpauth://totp/StudyChat:admin%40lab.test?secret=${SECRET}&issuer=StudyChat`;

afterEach(() => vi.unstubAllGlobals());

describe('SecurityPage two-factor set-up', () => {
  it('shows a QR code of the set-up link drawn in the browser, with the key and the link (issue 34)', async () => {
    const calls = mockFetch({
      'GET /api/auth/security': () => json(200, { role: 'admin', totpEnabled: false, totpRequired: false }),
      'POST /api/auth/totp/setup': () => json(200, { secret: SECRET, otpauthUrl: URL }),
    });
    renderPage(<SecurityPage />, { path: '/admin/security', route: '/admin/security' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Set up two-factor authentication' }));

    const qr = await screen.findByRole('img', { name: /QR code of the set-up link/ });
    // A QR symbol is 21 + 4k modules wide (version k + 1), plus the quiet zone of 4 on each side.
    const size = Number(qr.getAttribute('viewBox')?.split(' ')[2]);
    expect((size - 8 - 21) % 4).toBe(0);
    expect(size).toBeGreaterThanOrEqual(29);
    // The top-left finder pattern: its dark outer ring starts at the corner, its ring of light modules inside.
    const d = qr.querySelector('path')?.getAttribute('d') ?? '';
    expect(d).toContain('M4 4h1v1h-1z');
    expect(d).toContain('M10 4h1v1h-1z');
    expect(d).not.toContain('M5 5h1v1h-1z');
    expect(d).toContain('M6 6h1v1h-1z');

    expect(screen.getByText(SECRET)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: URL })).toHaveAttribute('href', URL);
    // Drawn here: every call is the app's own (the page's Prolific card reads its own setting too).
    expect(calls.every((c) => c.url.startsWith('/api/'))).toBe(true);
    expect(calls.map((c) => c.url)).toEqual(expect.arrayContaining(['/api/auth/security', '/api/auth/totp/setup']));
  });
});

import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from '../../../lib/router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getToken, setToken } from '../../../lib/session';
import { PREVIEW_SIGNED_IN_TEXT, PreviewPage } from './PreviewPage';

const EXP = '22222222-2222-4222-8222-222222222222';

function reply(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function show(hash: string, fetchReply?: Response) {
  const fetch = vi.fn(async () => fetchReply ?? reply(500, {}));
  vi.stubGlobal('fetch', fetch);
  window.history.replaceState(null, '', `/preview${hash}`);
  render(
    <MemoryRouter initialEntries={['/preview']}>
      <Routes>
        <Route path="/preview" element={<PreviewPage />} />
        <Route path="/consent" element={<p>Consent page</p>} />
      </Routes>
    </MemoryRouter>,
  );
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

describe('PreviewPage', () => {
  it('signs a fresh browser in once, keeps the study ids, drops the token from the address and starts at consent', async () => {
    const fetch = show(
      '#tok-123',
      reply(200, {
        token: 'participant.jwt.x',
        user: { id: 'u', email: 'e' },
        experiment_id: EXP,
        prolific_pid: 'PREVIEW-AB',
      }),
    );
    expect(await screen.findByText('Consent page')).toBeInTheDocument();
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/preview/redeem');
    expect(JSON.parse(String(init.body))).toEqual({ token: 'tok-123' });
    expect(getToken()).toBe('participant.jwt.x');
    expect(sessionStorage.getItem('EXPERIMENT_ID')).toBe(EXP);
    expect(sessionStorage.getItem('PROLIFIC_PID')).toBe('PREVIEW-AB');
    expect(window.location.hash).toBe('');
  });

  it('never replaces a session this browser already holds (the admin’s): it asks for a private window', () => {
    setToken('admin.jwt.x');
    const fetch = show('#tok-123');
    expect(screen.getByText(PREVIEW_SIGNED_IN_TEXT)).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
    expect(getToken()).toBe('admin.jwt.x');
  });

  it('shows the server’s message for a used or expired link and stays signed out', async () => {
    const message =
      'This preview link has expired or has already been used. Create a new preview on the experiment page.';
    show('#tok-123', reply(401, { error: message, code: 'PREVIEW_LINK_INVALID' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(getToken()).toBeNull();
  });
});

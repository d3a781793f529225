import type { StudyVersionSummary } from '@studychat/contracts/web';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../test-utils';
import { StudiesPage } from './StudiesPage';

afterEach(() => vi.unstubAllGlobals());

function version(label: string, over: Partial<StudyVersionSummary> = {}): StudyVersionSummary {
  return {
    id: crypto.randomUUID(),
    label,
    study_id: 'sleep',
    title: 'Sleep study',
    parent_id: null,
    is_default: false,
    experiments: 0,
    locked: false,
    created_at: '2026-11-20T10:00:00.000Z',
    updated_at: '2026-11-20T10:00:00.000Z',
    ...over,
  };
}

const show = (as: 'admin' | 'analyst' = 'admin') =>
  renderPage(<StudiesPage />, { path: '/admin/studies', route: '/admin/studies', as });

describe('StudiesPage: deleting a study version', () => {
  const builtIn = version('Built-in', { is_default: true, experiments: 2 });
  const pinned = version('Pinned', { experiments: 1 });
  const ran = version('Ran', { locked: true });
  const copy = version('Sleep v1 (copy)');

  it('offers Delete only for a version no experiment runs and nobody ran, and deletes it after a confirmation', async () => {
    let list = [builtIn, pinned, ran, copy];
    const calls = mockFetch({
      'GET /api/admin/study-versions': () => json(200, list),
      [`DELETE /api/admin/study-versions/${copy.id}`]: () => {
        list = list.filter((v) => v.id !== copy.id);
        return json(200, { id: copy.id });
      },
    });
    show();
    const ui = userEvent.setup();
    await screen.findByRole('link', { name: 'Sleep v1 (copy)' });
    expect(screen.getAllByRole('button', { name: /^Delete / })).toHaveLength(1);

    await ui.click(screen.getByRole('button', { name: 'Delete Sleep v1 (copy)...' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this study version?' });
    expect(dialog).toHaveTextContent('"Sleep v1 (copy)" will be deleted for good');
    await ui.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await ui.click(screen.getByRole('button', { name: 'Delete Sleep v1 (copy)...' }));
    await ui.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete version' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Deleted study version Sleep v1 (copy).');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Sleep v1 (copy)' })).toBeNull());
  });

  it("shows the server's refusal (a preview ran it)", async () => {
    const refusal =
      'Participants (or a preview) ran this study version: it is kept with their data and cannot be deleted.';
    mockFetch({
      'GET /api/admin/study-versions': () => json(200, [copy]),
      [`DELETE /api/admin/study-versions/${copy.id}`]: () =>
        json(409, { error: refusal, code: 'STUDY_VERSION_IN_USE' }),
    });
    show();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Delete Sleep v1 (copy)...' }));
    await ui.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete version' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
  });

  it('offers no Delete to an analyst', async () => {
    mockFetch({ 'GET /api/admin/study-versions': () => json(200, [copy]) });
    show('analyst');
    await screen.findByRole('link', { name: 'Sleep v1 (copy)' });
    expect(screen.queryByRole('button', { name: /Delete/ })).toBeNull();
  });
});

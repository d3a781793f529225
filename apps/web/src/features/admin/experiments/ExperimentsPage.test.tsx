import type { Experiment } from '@studychat/contracts/web';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../test-utils';
import { ExperimentsPage } from './ExperimentsPage';

function experiment(name: string, description: string | null, state: Experiment['state'] = 'open'): Experiment {
  return {
    state,
    id: crypto.randomUUID(),
    name,
    description,
    completion_codes: { complete: null, exitnoqualms: null, exitceiling: null },
    study_version_id: null,
    created_at: '2026-11-01T10:00:00.000Z',
    updated_at: '2026-11-01T10:00:00.000Z',
  };
}

afterEach(() => vi.unstubAllGlobals());

const show = () => renderPage(<ExperimentsPage />, { path: '/admin/experiments', route: '/admin/experiments' });

describe('ExperimentsPage', () => {
  it('lists experiments with a dash for a missing description and a details link', async () => {
    const first = experiment('Wave 1', null);
    mockFetch({ 'GET /api/experiments': () => json(200, [first]) });
    show();
    expect(await screen.findByText('Wave 1')).toBeInTheDocument();
    expect(screen.getByText('-')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /View Details/ })).toHaveAttribute(
      'href',
      `/admin/experiments/${first.id}`,
    );
  });

  it('shows each state, and lists archived experiments only after "Show archived"', async () => {
    const live = experiment('Wave 2', null, 'paused');
    const old = experiment('Wave 0', null, 'archived');
    const calls = mockFetch({
      'GET /api/experiments': (call) => json(200, call.url.includes('include_archived=true') ? [live, old] : [live]),
    });
    show();
    expect(await screen.findByText('Wave 2')).toBeInTheDocument();
    expect(screen.getByText('Paused')).toBeInTheDocument();
    expect(screen.queryByText('Wave 0')).not.toBeInTheDocument();
    expect(calls[0]?.url).not.toContain('include_archived');

    await userEvent.click(screen.getByRole('checkbox', { name: 'Show archived' }));
    expect(await screen.findByText('Wave 0')).toBeInTheDocument();
    expect(screen.getByText('Archived')).toBeInTheDocument();
    expect(calls.at(-1)?.url).toContain('include_archived=true');
  });

  it('shows the empty state', async () => {
    mockFetch({ 'GET /api/experiments': () => json(200, []) });
    show();
    expect(await screen.findByText('No experiments found. Create one to get started.')).toBeInTheDocument();
  });

  it('shows the load error with the server text', async () => {
    mockFetch({ 'GET /api/experiments': () => json(403, { error: 'Admin access required', code: 'FORBIDDEN' }) });
    show();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load experiments: Admin access required');
  });

  it('creates an experiment through the modal and reloads the list', async () => {
    let list: Experiment[] = [];
    const calls = mockFetch({
      'GET /api/experiments': () => json(200, list),
      'POST /api/experiments': (call) => {
        const created = experiment('Pilot', 'Try it');
        list = [created];
        return json(201, { ...created, body: call.body });
      },
    });
    show();
    await screen.findByText('No experiments found. Create one to get started.');
    const ui = userEvent.setup();
    await ui.click(screen.getByRole('button', { name: 'Create New Experiment' }));
    const dialog = screen.getByRole('dialog', { name: 'Create New Experiment' });
    await ui.click(screen.getByRole('button', { name: 'Create' }));
    expect(dialog).toHaveTextContent('Name is required');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await ui.type(screen.getByLabelText('Name *'), '  Pilot ');
    await ui.type(screen.getByLabelText('Description (optional)'), 'Try it');
    await ui.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Pilot', description: 'Try it' });
    expect(await screen.findByText('Pilot')).toBeInTheDocument();
  });

  it('shows a create failure in the modal, and Cancel closes it and clears the error', async () => {
    mockFetch({
      'GET /api/experiments': () => json(200, []),
      'POST /api/experiments': () => json(400, { error: 'Name is too long', code: 'VALIDATION_FAILED' }),
    });
    show();
    await screen.findByText('No experiments found. Create one to get started.');
    const ui = userEvent.setup();
    await ui.click(screen.getByRole('button', { name: 'Create New Experiment' }));
    await ui.type(screen.getByLabelText('Name *'), 'X');
    await ui.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to create experiment: Name is too long');
    await ui.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Create New Experiment' }));
    expect(screen.queryByText(/Failed to create experiment/)).not.toBeInTheDocument();
  });

  it("reads 'Creating...' and is disabled while the create is in flight", async () => {
    let finish: (res: Response) => void = () => undefined;
    mockFetch({
      'GET /api/experiments': () => json(200, []),
      'POST /api/experiments': () => new Promise<Response>((resolve) => (finish = resolve)),
    });
    show();
    await screen.findByText('No experiments found. Create one to get started.');
    const ui = userEvent.setup();
    await ui.click(screen.getByRole('button', { name: 'Create New Experiment' }));
    await ui.type(screen.getByLabelText('Name *'), 'Slow');
    await ui.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByRole('button', { name: 'Creating...' })).toBeDisabled();
    finish(json(201, experiment('Slow', null)));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('offers no Create button to a read-only analyst', async () => {
    mockFetch({ 'GET /api/experiments': () => json(200, [experiment('Wave 1', null)]) });
    renderPage(<ExperimentsPage />, { path: '/admin/experiments', route: '/admin/experiments', as: 'analyst' });
    expect(await screen.findByText('Wave 1')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create New Experiment' })).not.toBeInTheDocument();
  });
});

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ProlificChecklist } from '@studychat/contracts/web';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../test-utils';
import { ProlificLaunchCard } from './ProlificLaunchCard';

const ID = '77777777-7777-4777-8777-777777777777';
const BASE = `/api/experiments/${ID}/prolific`;

afterEach(() => {
  vi.unstubAllGlobals();
});

function checklist(over: Partial<ProlificChecklist> = {}, failing: string[] = []): ProlificChecklist {
  const keys = ['connection', 'open', 'codes', 'model', 'preview', 'budget', 'draft'] as const;
  return {
    ok: failing.length === 0,
    items: keys.map((key) => ({
      key,
      label: `Item ${key}`,
      ok: !failing.includes(key),
      detail: failing.includes(key) ? `Fix ${key} like this.` : `${key} is fine.`,
    })),
    pathways: [
      { key: 'complete', label: 'whole study', code: 'C1' },
      { key: 'ceiling', label: 'baseline intention 7', code: 'C3' },
    ],
    usesLogins: true,
    launch: {
      experimentId: ID,
      state: null,
      studyId: null,
      studyUrl: null,
      credentials: 0,
      launchedAt: null,
      publishedAt: null,
    },
    ...over,
  };
}

const draft = {
  experimentId: ID,
  state: 'draft' as const,
  studyId: 'st123',
  studyUrl: 'https://x/prolific',
  credentials: 15,
  launchedAt: '2026-11-28T10:00:00.000Z',
  publishedAt: null,
};

describe('ProlificLaunchCard', () => {
  it('sends the form as the launch body, then shows the draft', async () => {
    let launched = false;
    const calls = mockFetch({
      [`GET ${BASE}/checklist`]: () =>
        json(200, launched ? checklist({ launch: draft }, ['model']) : checklist({}, ['model', 'draft'])),
      [`POST ${BASE}/launch`]: () => {
        launched = true;
        return json(200, draft);
      },
    });
    const user = userEvent.setup();
    renderPage(<ProlificLaunchCard experimentId={ID} />, { path: '/x', route: '/x' });
    await user.type(await screen.findByLabelText('Places'), '10');
    await user.type(screen.getByLabelText('Reward (pence or cents)'), '250');
    await user.type(screen.getByLabelText('Estimated minutes'), '15');
    await user.click(screen.getByLabelText('Tablet'));
    await user.selectOptions(screen.getByLabelText(/whole study/), 'completed:AUTOMATICALLY_APPROVE');
    await user.selectOptions(screen.getByLabelText(/baseline intention 7/), 'screened_out:MANUALLY_REVIEW');
    await user.type(screen.getByLabelText('Prolific workspace ID'), 'ws1');
    await user.click(screen.getByRole('button', { name: 'Launch (create draft)' }));
    expect(await screen.findByTestId('prolific-launch-state')).toHaveTextContent(
      'Draft study st123 created on Prolific with 15 study logins',
    );
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      places: 10,
      rewardMinor: 250,
      estimatedMinutes: 15,
      devices: ['desktop', 'tablet'],
      pathways: [
        { pathway: 'complete', outcome: 'completed', action: 'AUTOMATICALLY_APPROVE' },
        { pathway: 'ceiling', outcome: 'screened_out', action: 'MANUALLY_REVIEW' },
      ],
      workspaceId: 'ws1',
    });
    expect(screen.queryByRole('button', { name: 'Launch (create draft)' })).not.toBeInTheDocument();
  });

  it('shows each failing item with how to fix it, and keeps Publish disabled', async () => {
    mockFetch({ [`GET ${BASE}/checklist`]: () => json(200, checklist({ launch: draft }, ['preview', 'budget'])) });
    renderPage(<ProlificLaunchCard experimentId={ID} />, { path: '/x', route: '/x' });
    const preview = await screen.findByTestId('check-preview');
    expect(preview).toHaveTextContent('Item preview: not done');
    expect(preview).toHaveTextContent('Fix preview like this.');
    expect(screen.getByTestId('check-codes')).toHaveTextContent('Item codes: done');
    expect(screen.getByRole('button', { name: 'Publish on Prolific' })).toBeDisabled();
  });

  it('publishes only after the confirmation, and shows the server’s refusal', async () => {
    let published = false;
    const calls = mockFetch({
      [`GET ${BASE}/checklist`]: () =>
        json(200, checklist({ launch: published ? { ...draft, state: 'published' } : draft })),
      [`POST ${BASE}/publish`]: () => {
        published = true;
        return json(200, { ...draft, state: 'published', publishedAt: '2026-11-28T11:00:00.000Z' });
      },
    });
    const user = userEvent.setup();
    renderPage(<ProlificLaunchCard experimentId={ID} />, { path: '/x', route: '/x' });
    await user.click(await screen.findByRole('button', { name: 'Publish on Prolific' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish on Prolific?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Publish on Prolific' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Publish now' }));
    expect(await screen.findByText('Published on Prolific as study st123.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('refreshes from Prolific and shows the counts per status and the spare logins', async () => {
    mockFetch({
      [`GET ${BASE}/checklist`]: () => json(200, checklist({ launch: draft })),
      [`POST ${BASE}/sync`]: () =>
        json(200, {
          read: 8,
          matched: 7,
          unmatched: 1,
          counts: { active: 1, awaiting_review: 2, approved: 1, rejected: 0, returned: 2, timed_out: 1, other: 0 },
          spareLogins: { unused: 4, freed: 3 },
        }),
    });
    const user = userEvent.setup();
    renderPage(<ProlificLaunchCard experimentId={ID} />, { path: '/x', route: '/x' });
    await user.click(await screen.findByRole('button', { name: 'Refresh from Prolific' }));
    const sync = await screen.findByTestId('prolific-sync');
    expect(sync).toHaveTextContent('Read 8 submissions from Prolific: 7 matched to participants, 1 not matched.');
    expect(within(sync).getByText('Awaiting review').nextSibling).toHaveTextContent('2');
    expect(screen.getByTestId('prolific-spares')).toHaveTextContent('Spare logins: 7 (of which 3 freed');
  });

  it('shows the server’s message when the launch is refused', async () => {
    mockFetch({
      [`GET ${BASE}/checklist`]: () => json(200, checklist({ usesLogins: false }, ['connection', 'draft'])),
      [`POST ${BASE}/launch`]: () =>
        json(409, { error: 'Set a Prolific API token first.', code: 'PROLIFIC_NOT_CONFIGURED' }),
    });
    const user = userEvent.setup();
    renderPage(<ProlificLaunchCard experimentId={ID} />, { path: '/x', route: '/x' });
    await user.click(await screen.findByRole('button', { name: 'Launch (create draft)' }));
    expect(await screen.findByText('Set a Prolific API token first.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Prolific workspace ID')).not.toBeInTheDocument();
  });
});

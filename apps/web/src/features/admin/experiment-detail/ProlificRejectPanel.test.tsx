import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../test-utils';
import { pidsOf, ProlificRejectPanel } from './ProlificRejectPanel';

const ID = '77777777-7777-4777-8777-777777777777';
const URL = `/api/experiments/${ID}/prolific/reject`;
const MESSAGE =
  'Your submission finished the whole study in under a minute, which is too little time to read the sections.';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ProlificRejectPanel', () => {
  it('counts the message to 100, then asks to confirm naming how many, and sends the category and message', async () => {
    const calls = mockFetch({
      [`POST ${URL}`]: () => json(200, { rejected: ['PIDA', 'PIDB'], failed: [] }),
    });
    const user = userEvent.setup();
    renderPage(<ProlificRejectPanel experimentId={ID} />, { path: '/x', route: '/x' });
    await user.type(screen.getByLabelText('Prolific ids to reject (one per line)'), 'PIDA\nPIDB\nPIDA');
    await user.selectOptions(screen.getByLabelText('Reason (Prolific’s category)'.replace('’', "'")), 'TOO_QUICKLY');
    expect(screen.getByRole('option', { name: 'Completed too quickly' })).toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Reject…' });
    await user.type(screen.getByLabelText('Message to the participant'), 'x'.repeat(40));
    expect(screen.getByTestId('reject-count')).toHaveTextContent('40 / 100 characters (60 more needed)');
    expect(button).toBeDisabled();
    await user.clear(screen.getByLabelText('Message to the participant'));
    await user.type(screen.getByLabelText('Message to the participant'), MESSAGE);
    expect(screen.getByTestId('reject-count')).toHaveTextContent(`${MESSAGE.length} / 100 characters`);
    expect(button).toBeEnabled();
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Reject 2 participants on Prolific?' });
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Reject 2 submissions' }));
    expect(await screen.findByTestId('prolific-rejected')).toHaveTextContent('Rejected 2 submissions on Prolific.');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { prolificPids: ['PIDA', 'PIDB'], category: 'TOO_QUICKLY', message: MESSAGE, confirm: true },
    ]);
  });

  it('cancelling the confirmation sends nothing; a refusal lists the participants it names', async () => {
    const calls = mockFetch({
      [`POST ${URL}`]: () =>
        json(409, {
          error: 'Only submissions awaiting review can be rejected.',
          code: 'PROLIFIC_NOT_REVIEWABLE',
          issues: [{ path: 'PIDA', message: 'is approved, not awaiting review' }],
        }),
    });
    const user = userEvent.setup();
    renderPage(<ProlificRejectPanel experimentId={ID} />, { path: '/x', route: '/x' });
    await user.type(screen.getByLabelText('Prolific ids to reject (one per line)'), 'PIDA');
    await user.selectOptions(screen.getByRole('combobox'), 'LOW_EFFORT');
    await user.type(screen.getByLabelText('Message to the participant'), MESSAGE);
    await user.click(screen.getByRole('button', { name: 'Reject…' }));
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(calls).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Reject…' }));
    expect(await screen.findByRole('dialog', { name: 'Reject 1 participant on Prolific?' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reject 1 submission' }));
    expect(await screen.findByText('Only submissions awaiting review can be rejected.')).toBeInTheDocument();
    expect(screen.getByText('PIDA is approved, not awaiting review')).toBeInTheDocument();
  });

  it('reads pasted ids separated by lines, commas or spaces, each once', () => {
    expect(pidsOf(' A1,B2\n\nC3 A1;D4 ')).toEqual(['A1', 'B2', 'C3', 'D4']);
    expect(pidsOf('  \n ')).toEqual([]);
  });
});

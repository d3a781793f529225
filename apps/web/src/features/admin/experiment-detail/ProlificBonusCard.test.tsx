import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../test-utils';
import { ProlificBonusCard } from './ProlificBonusCard';

const ID = '77777777-7777-4777-8777-777777777777';
const BATCH = '88888888-8888-4888-8888-888888888888';
const LIST = `/api/experiments/${ID}/prolific/bonuses`;
const PAY = `/api/experiments/${ID}/prolific/bonuses/${BATCH}/pay`;

function batch(overrides: object = {}) {
  return {
    id: BATCH,
    experimentId: ID,
    idempotencyKey: 'k',
    source: 'rule',
    reason: 'Thanks',
    status: 'prepared',
    totalCents: 100,
    total: '1.00',
    lines: [
      { prolificPid: 'PIDA', amountCents: 50, amount: '0.50', alreadyBonused: false },
      { prolificPid: 'PIDB', amountCents: 50, amount: '0.50', alreadyBonused: false },
    ],
    prolificBulkId: null,
    prolificFees: null,
    prolificTotal: null,
    lastError: null,
    createdAt: '2026-11-28T10:00:00.000Z',
    updatedAt: '2026-11-28T10:00:00.000Z',
    paidAt: null,
    ...overrides,
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ProlificBonusCard', () => {
  it('prepares from a rule, shows the lines and total, and pays once after “Pay £1.00 to 2 participants”, double-clicked', async () => {
    const calls = mockFetch({
      [`GET ${LIST}`]: () => json(200, { batches: [] }),
      [`POST ${LIST}`]: () => json(200, batch()),
      [`POST ${PAY}`]: () =>
        json(200, batch({ status: 'paid', prolificBulkId: 'bulk1', prolificTotal: '133.34', prolificFees: '33.34' })),
    });
    const user = userEvent.setup();
    renderPage(<ProlificBonusCard experimentId={ID} />, { path: '/x', route: '/x' });
    await user.type(screen.getByLabelText('Reason (kept in our records)'), 'Thanks');
    await user.type(screen.getByLabelText('Amount each (£)'), '0.5');
    await user.click(screen.getByRole('button', { name: 'Prepare bonuses' }));
    const preview = await screen.findByTestId('bonus-preview');
    expect(preview).toHaveTextContent('2 participants, £1.00 in all (prepared, not paid)');
    expect(within(preview).getByText('PIDA')).toBeInTheDocument();
    const prepared = calls.filter((c) => c.url === LIST && c.method === 'POST');
    expect(prepared).toHaveLength(1);
    expect(prepared[0]?.body).toMatchObject({
      reason: 'Thanks',
      source: { kind: 'rule', pathway: 'complete', amount: '0.5' },
      idempotencyKey: expect.stringMatching(/^bonus-[0-9a-f]{32}$/),
    });
    await user.click(screen.getByRole('button', { name: 'Pay £1.00 to 2 participants…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pay £1.00 to 2 participants?' });
    expect(calls.filter((c) => c.url === PAY)).toEqual([]);
    await user.dblClick(within(dialog).getByRole('button', { name: 'Pay £1.00 to 2 participants' }));
    expect(await screen.findByTestId('bonus-paid')).toHaveTextContent('Paid £1.00 to 2 participants on Prolific.');
    expect(screen.getByTestId('bonus-prolific-figures')).toHaveTextContent(
      'Prolific’s figures for the set-up: total £1.33, of which fees £0.33.'.replace('’', "'"),
    );
    expect(calls.filter((c) => c.url === PAY).map((c) => c.body)).toEqual([{}]);
  });

  it('prepares again with the same key until the form changes; a CSV’s bad lines are listed', async () => {
    let answer = () =>
      json(400, {
        error: '1 line cannot be paid.',
        code: 'BONUS_LINES_INVALID',
        issues: [{ path: 'line 2', message: 'PIDX is not a participant of this experiment' }],
      });
    const calls = mockFetch({
      [`GET ${LIST}`]: () => json(200, { batches: [] }),
      [`POST ${LIST}`]: () => answer(),
    });
    const user = userEvent.setup();
    renderPage(<ProlificBonusCard experimentId={ID} />, { path: '/x', route: '/x' });
    await user.type(screen.getByLabelText('Reason (kept in our records)'), 'List');
    await user.click(screen.getByLabelText('A list (Prolific id, amount)'));
    await user.type(screen.getByLabelText('Lines: Prolific id,amount'), 'PIDA,1{enter}PIDX,2');
    await user.click(screen.getByRole('button', { name: 'Prepare bonuses' }));
    expect(await screen.findByText('line 2: PIDX is not a participant of this experiment')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Prepare bonuses' }));
    answer = () => json(200, batch({ source: 'csv' }));
    await user.type(screen.getByLabelText('Lines: Prolific id,amount'), '0');
    await user.click(screen.getByRole('button', { name: 'Prepare bonuses' }));
    await screen.findByTestId('bonus-preview');
    const keys = calls
      .filter((c) => c.url === LIST && c.method === 'POST')
      .map((c) => (c.body as { idempotencyKey: string }).idempotencyKey);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toMatchObject({
      source: { kind: 'csv', csv: 'PIDA,1\nPIDX,20' },
    });
  });

  it('a participant bonused before needs the box ticked; an unconfirmed payment needs the researcher’s check', async () => {
    const repeated = batch({
      lines: [{ prolificPid: 'PIDA', amountCents: 100, amount: '1.00', alreadyBonused: true }],
    });
    const calls = mockFetch({
      [`GET ${LIST}`]: () => json(200, { batches: [] }),
      [`POST ${LIST}`]: () => json(200, repeated),
      [`POST ${PAY}`]: () =>
        json(502, { error: 'Prolific failed (503). Prolific may or may not have paid.', code: 'PROLIFIC_UNAVAILABLE' }),
    });
    const user = userEvent.setup();
    renderPage(<ProlificBonusCard experimentId={ID} />, { path: '/x', route: '/x' });
    await user.type(screen.getByLabelText('Reason (kept in our records)'), 'Again');
    await user.type(screen.getByLabelText('Amount each (£)'), '1');
    await user.click(screen.getByRole('button', { name: 'Prepare bonuses' }));
    expect(await screen.findByText('already has a bonus')).toBeInTheDocument();
    const payButton = screen.getByRole('button', { name: 'Pay £1.00 to 1 participant…' });
    expect(payButton).toBeDisabled();
    await user.click(screen.getByLabelText(/already has a bonus from another batch: pay them again/));
    expect(payButton).toBeEnabled();
    await user.click(payButton);
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Pay £1.00 to 1 participant' }),
    );
    expect(await screen.findByText('Prolific failed (503). Prolific may or may not have paid.')).toBeInTheDocument();
    expect(calls.filter((c) => c.url === PAY).map((c) => c.body)).toEqual([{ confirmRepeats: true }]);
  });
});

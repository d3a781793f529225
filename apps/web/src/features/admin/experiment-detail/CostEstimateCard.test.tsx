import type { CostEstimateReply } from '@studychat/contracts/web';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../test-utils';
import { CostEstimateCard, sampleFrom } from './CostEstimateCard';

const ID = '99999999-9999-4999-8999-999999999999';
const url = `/api/experiments/${ID}/cost-estimate`;

/** The server's estimate scaled to the sample asked for: one arm with a chat, one without. */
function estimate(sample: number): CostEstimateReply {
  const each = { uncached: 0.04, cached: 0.015 };
  return {
    sample,
    arms: [
      {
        condition: 'chat',
        label: 'Chat with the AI',
        share: 0.5,
        participants: sample / 2,
        models: ['claude-sonnet-4-5'],
        unpriced: [],
        calls: 4,
        inputTokens: 9000,
        outputTokens: 1200,
        perParticipant: each,
        total: { uncached: each.uncached * (sample / 2), cached: each.cached * (sample / 2) },
      },
      {
        condition: 'none',
        label: 'No chat',
        share: 0.5,
        participants: sample / 2,
        models: [],
        unpriced: [],
        calls: 0,
        inputTokens: 0,
        outputTokens: 0,
        perParticipant: { uncached: 0, cached: 0 },
        total: { uncached: 0, cached: 0 },
      },
    ],
    total: { uncached: 0.02 * sample, cached: 0.0075 * sample },
    perParticipant: { uncached: 0.02, cached: 0.0075 },
    assumptions: ['Tokens are estimated as one per 4 characters of the prompts and messages.'],
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('CostEstimateCard', () => {
  it('reads a sample size as a whole number from 1 to a million', () => {
    expect(sampleFrom(' 250 ')).toEqual({ sample: 250 });
    for (const bad of ['', '0', '-3', '2.5', 'many', '1000001']) expect(sampleFrom(bad)).toHaveProperty('error');
  });

  it('shows each arm and the total without and with caching at the size typed, and what it assumes', async () => {
    const calls = mockFetch({
      [`GET ${url}`]: (call) => json(200, estimate(Number(new URL(call.url, 'http://x').searchParams.get('sample')))),
    });
    renderPage(<CostEstimateCard experimentId={ID} />, { path: '/x', route: '/x' });
    expect(await screen.findByTestId('cost-total')).toHaveTextContent(
      '100 participants: $2.00 without caching, $0.7500 with caching ($0.0200 and $0.0075 per participant).',
    );
    const chat = screen.getByTestId('cost-arm-chat');
    expect(within(chat).getByRole('rowheader')).toHaveTextContent('Chat with the AIclaude-sonnet-4-5');
    expect(chat).toHaveTextContent('504$0.0400$0.0150$2.00$0.7500');
    expect(screen.getByTestId('cost-arm-none')).toHaveTextContent('No chatno model call500$0.0000$0.0000');
    expect(screen.getByText(/one per 4 characters/)).toBeInTheDocument();

    const user = userEvent.setup();
    const field = screen.getByLabelText('Target sample size');
    await user.clear(field);
    await user.type(field, 'lots');
    await user.click(screen.getByRole('button', { name: 'Estimate' }));
    expect(field).toHaveAccessibleDescription(/whole number of participants/);
    expect(calls.map((c) => c.url)).toEqual([`${url}?sample=100`]);

    await user.clear(field);
    await user.type(field, '400{Enter}');
    await screen.findByText(/400 participants:/);
    expect(screen.getByTestId('cost-total')).toHaveTextContent('$8.00 without caching, $3.00 with caching');
    expect(calls.map((c) => c.url)).toEqual([`${url}?sample=100`, `${url}?sample=400`]);
    expect(field).not.toHaveAttribute('aria-invalid');
  });

  it('says a cost is unknown when a model has no price', async () => {
    const unpriced = estimate(10);
    const [chat, none] = unpriced.arms;
    if (!chat || !none) throw new Error('two arms');
    unpriced.arms = [
      {
        ...chat,
        unpriced: ['my-model'],
        perParticipant: { uncached: null, cached: null },
        total: { uncached: null, cached: null },
      },
      none,
    ];
    unpriced.total = { uncached: null, cached: null };
    unpriced.perParticipant = { uncached: null, cached: null };
    mockFetch({ [`GET ${url}`]: () => json(200, unpriced) });
    renderPage(<CostEstimateCard experimentId={ID} />, { path: '/x', route: '/x' });
    expect(await screen.findByTestId('cost-total')).toHaveTextContent('unknown without caching, unknown with caching');
    expect(screen.getByTestId('cost-arm-chat')).toHaveTextContent('(no price for my-model)');
  });
});

import type { ChatLimitsReply, ModelCheckReply } from '@studychat/contracts/web';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScriptedModelBanner } from '../ScriptedModelBanner';
import { ModelCheckPanel } from '../model/ModelCheckPanel';
import { json, mockFetch, renderPage } from '../test-utils';
import { limitChanges } from './chat-limit-fields';
import { ChatLimitsCard } from './ChatLimitsCard';

const ID = '99999999-9999-4999-8999-999999999999';
const url = `/api/experiments/${ID}/chat-limits`;

const defaults = {
  maxMessages: 30,
  maxMessageChars: 1000,
  replyTokens: 2048,
  historyTokens: 8000,
  participantTokens: 150_000,
  budgetUsd: null,
  admitPercent: 95,
};
const none = {
  maxMessages: null,
  maxMessageChars: null,
  replyTokens: null,
  historyTokens: null,
  participantTokens: null,
  budgetUsd: null,
  admitPercent: null,
};

function reply(over: Partial<ChatLimitsReply> = {}): ChatLimitsReply {
  return {
    defaults,
    overrides: none,
    effective: defaults,
    budget: { state: 'none', spentUsd: 1.5, budgetUsd: null, admitting: true },
    ...over,
  };
}

const show = () => renderPage(<ChatLimitsCard experimentId={ID} />, { path: '/x', route: '/x' });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ChatLimitsCard', () => {
  it('shows the defaults and what applies, and sends only what changed (empty: back to the default)', async () => {
    const saved = reply({
      overrides: { ...none, maxMessages: 10, budgetUsd: 20 },
      effective: { ...defaults, maxMessages: 10, budgetUsd: 20 },
      budget: { state: 'ok', spentUsd: 1.5, budgetUsd: 20, admitting: true },
    });
    const calls = mockFetch({ [`GET ${url}`]: () => json(200, reply()), [`PUT ${url}`]: () => json(200, saved) });
    const user = userEvent.setup();
    show();
    const messages = await screen.findByLabelText('Messages per participant');
    expect(messages).toHaveAttribute('placeholder', 'Default: 30');
    expect(screen.getByText(/Spent on the chat so far: \$1\.50 \(no budget set\)/)).toBeInTheDocument();
    await user.type(messages, '10');
    await user.type(screen.getByLabelText('Budget (USD)'), '20');
    await user.click(screen.getByRole('button', { name: 'Save limits' }));
    expect(await screen.findByText('Chat limits saved.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ overrides: { maxMessages: 10, budgetUsd: 20 } });
    expect(screen.getByText('Spent $1.50 of $20.00 (7%).')).toBeInTheDocument();
    expect(screen.getByLabelText('Messages per participant')).toHaveValue('10');
  });

  it('refuses values that are not positive (whole) numbers before sending', async () => {
    const calls = mockFetch({ [`GET ${url}`]: () => json(200, reply()) });
    const user = userEvent.setup();
    show();
    await user.type(await screen.findByLabelText('Characters per message'), '2.5');
    await user.click(screen.getByRole('button', { name: 'Save limits' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Characters per message: enter a whole number above 0');
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    expect(limitChanges({ ...none, budgetUsd: 5 }, { ...blank(), budgetUsd: '' }).changes).toEqual({ budgetUsd: null });
  });

  it('warns at 80% and says the chat has stopped at 100%', async () => {
    mockFetch({
      [`GET ${url}`]: () =>
        json(
          200,
          reply({
            budget: { state: 'warning', spentUsd: 8.5, budgetUsd: 10, admitting: true },
            effective: { ...defaults, budgetUsd: 10 },
          }),
        ),
    });
    const { unmount } = show();
    expect(await screen.findByText(/Budget nearly used:/)).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Chat budget spent' })).toHaveAttribute('aria-valuenow', '85');
    unmount();
    mockFetch({
      [`GET ${url}`]: () =>
        json(200, reply({ budget: { state: 'stopped', spentUsd: 10.2, budgetUsd: 10, admitting: false } })),
    });
    show();
    expect(await screen.findByRole('alert')).toHaveTextContent('Budget used up: Spent $10.20 of $10.00 (100%).');
  });

  it('says when newcomers are turned away, and takes the admit percent as a whole number from 1 to 100', async () => {
    const calls = mockFetch({
      [`GET ${url}`]: () =>
        json(
          200,
          reply({
            budget: { state: 'warning', spentUsd: 9.6, budgetUsd: 10, admitting: false },
            effective: { ...defaults, budgetUsd: 10 },
          }),
        ),
    });
    const user = userEvent.setup();
    show();
    expect(await screen.findByText(/No new participants:/)).toBeInTheDocument();
    const admit = screen.getByLabelText('Admit new participants until (% of budget spent)');
    expect(admit).toHaveAttribute('placeholder', 'Default: 95%');
    await user.type(admit, '120');
    await user.click(screen.getByRole('button', { name: 'Save limits' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('enter a whole number from 1 to 100');
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    expect(limitChanges(none, { ...blank(), admitPercent: '90' }).changes).toEqual({ admitPercent: 90 });
  });
});

function blank() {
  return {
    maxMessages: '',
    maxMessageChars: '',
    replyTokens: '',
    historyTokens: '',
    participantTokens: '',
    budgetUsd: '',
    admitPercent: '',
  };
}

describe('ModelCheckPanel', () => {
  it('runs the check and says what is wrong in plain words', async () => {
    const result: ModelCheckReply = {
      ok: false,
      provider: 'anthropic',
      model: 'claude-sonnet-5-5',
      problem: 'key',
      message: 'Anthropic refused the API key. Check ANTHROPIC_API_KEY.',
      latencyMs: 120,
    };
    const calls = mockFetch({ 'POST /api/admin/model-check': () => json(200, result) });
    const user = userEvent.setup();
    renderPage(<ModelCheckPanel />, { path: '/x', route: '/x' });
    await user.click(screen.getByRole('button', { name: 'Test model' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The model does not work (anthropic, claude-sonnet-5-5)');
    expect(alert).toHaveTextContent('Check ANTHROPIC_API_KEY.');
    expect(calls).toHaveLength(1);
  });
});

describe('the admin banner', () => {
  it('names each experiment near or over its chat budget', async () => {
    mockFetch({
      'GET /api/admin/system': () =>
        json(200, {
          llmProvider: 'anthropic',
          llmModel: 'claude-sonnet-5-5',
          scripted: false,
          budgetAlerts: [
            { experimentId: ID, name: 'Pilot', state: 'warning', spentUsd: 8.5, budgetUsd: 10, admitting: true },
            { experimentId: 'e2', name: 'Main', state: 'stopped', spentUsd: 50, budgetUsd: 50, admitting: false },
          ],
        }),
    });
    renderPage(<ScriptedModelBanner />, { path: '/x', route: '/x' });
    await waitFor(() => expect(screen.getAllByRole('status')).toHaveLength(2));
    const [first, second] = screen.getAllByRole('status');
    expect(first).toHaveTextContent('Chat budget nearly used in Pilot: $8.50 of $10.00.');
    expect(within(first as HTMLElement).getByRole('link', { name: 'Pilot' })).toHaveAttribute(
      'href',
      `/admin/experiments/${ID}`,
    );
    expect(second).toHaveTextContent('Chat budget used up in Main: $50.00 of $50.00. The chat gives no more replies.');
    expect(screen.queryByText(/scripted offline model/)).not.toBeInTheDocument();
  });
});

import type { MonitorParticipant, MonitorReply, ProviderHealthReply } from '@studychat/contracts/web';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../test-utils';
import { MonitorPanel } from './MonitorPanel';

const ID = 'eeeeeeee-5555-4555-8555-555555555555';

function participant(login: string, pid: string, over: Partial<MonitorParticipant> = {}): MonitorParticipant {
  return {
    assignment_id: crypto.randomUUID(),
    user_id: crypto.randomUUID(),
    login,
    prolific_pid: pid,
    prolific_status: null,
    condition: 'mmr',
    status: 'in_progress',
    step: 'chat',
    section: null,
    step_since: '2026-11-20T10:00:00.000Z',
    seconds_on_step: 75,
    last_seen: '2026-11-20T10:01:00.000Z',
    stale: false,
    pathway: null,
    chat_rounds: 2,
    chat_closed_by: null,
    tokens: 1200,
    cost_usd: 0.012,
    is_test: false,
    ...over,
  };
}

const reply: MonitorReply = {
  generated_at: '2026-11-20T10:02:00.000Z',
  state: 'open',
  seq: 10,
  settings: { stale_minutes: 30, stale_minutes_set: false, target_sample_size: 300 },
  summary: {
    total: 5,
    conditions: { mmr: 3, control: 0 },
    screened_out: { confirm: 1, ceiling: 0 },
    not_yet_assigned: 0,
    in_progress: 1,
    stale: 1,
    completed: { complete: 1, confirm: 1, ceiling: 0 },
  },
  funnel: {
    steps: [
      { key: 'logged_in', reached: 3, dropped: 0 },
      { key: 'joined', reached: 3, dropped: 0 },
    ],
    assigned: { mmr: 2, control: 0 },
    completed: { complete: 0, confirm: 0, ceiling: 0 },
    screened_out_confirm: 1,
    screened_out_ceiling: 0,
  },
  spend: {
    tokens: 2400,
    cost_usd: 0.024,
    cache_write_tokens: 1200,
    cache_read_tokens: 9000,
    by_condition: { mmr: { participants: 2, tokens: 2400, cost_usd: 0.024 } },
    cost_per_participant_usd: 0.012,
    target_sample_size: 300,
    projected_usd: 3.6,
    projected_tokens: 360000,
    previews: { runs: 3, chats: 2, tokens: 1500, cost_usd: 0.015 },
  },
  srm: {
    strata: [
      {
        stratum: '3-4',
        counts: { mmr: 2, control: 0 },
        chi_square: 2,
        p_value: 0.157,
        allowed_imbalance: 2,
        imbalance: 2,
        warning: false,
      },
    ],
    warning: 'Sample ratio mismatch: stratum 3-4',
  },
  participants: [
    participant('alpha@study.test', 'PID-ALPHA', { chat_closed_by: 'budget', prolific_status: 'timed_out' }),
    participant('beta@study.test', 'PID-BETA', { status: 'stale', stale: true, step: 'sections', section: 2 }),
    participant('gamma@study.test', 'PID-GAMMA', { status: 'screened_out', step: 'confirm_exit', condition: null }),
  ],
};

const health: ProviderHealthReply = {
  periods: [
    { minutes: 15, replies: 4, errors: 0, waited: 0, waitMedianMs: null, waitMaxMs: null, fallbacks: 0 },
    { minutes: 60, replies: 12, errors: 2, waited: 3, waitMedianMs: 12_500, waitMaxMs: 40_000, fallbacks: 1 },
    { minutes: 1440, replies: 50, errors: 3, waited: 5, waitMedianMs: 12_500, waitMaxMs: 40_000, fallbacks: 2 },
  ],
};

describe('MonitorPanel', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the counts, the warning, the spend and every participant; search and status filter narrow the list', async () => {
    mockFetch({
      [`GET /api/experiments/${ID}/monitor`]: () => json(200, reply),
      [`GET /api/experiments/${ID}/monitor/stream`]: () =>
        new Response('data: {"seq":10,"events":0}\n\n', { headers: { 'content-type': 'text/event-stream' } }),
      [`GET /api/experiments/${ID}/monitor/provider-health`]: () => json(200, health),
    });
    renderPage(<MonitorPanel experimentId={ID} />, { path: '/m', route: '/m' });
    expect(await screen.findByTestId('monitor-total')).toHaveTextContent('5');
    // The provider's health (docs/decisions/0076): errors, waits and fallbacks per period.
    const table = await screen.findByRole('table', { name: 'Model provider health' });
    expect(within(table).getByTestId('provider-health-15')).toHaveTextContent('Last 15 min400- / -0');
    expect(within(table).getByTestId('provider-health-60')).toHaveTextContent('Last hour122312.5 s / 40.0 s1');
    expect(within(table).getByTestId('provider-health-1440')).toHaveTextContent('Last 24 h503512.5 s / 40.0 s2');
    expect(screen.getByTestId('monitor-stale')).toHaveTextContent('1');
    // Screened out whether or not their code was shown (1 waiting, 1 recorded); completed is the full study only.
    expect(screen.getByTestId('monitor-screened-out')).toHaveTextContent('2');
    expect(screen.getByTestId('monitor-completed')).toHaveTextContent('1');
    expect(screen.getByRole('status')).toHaveTextContent('Sample ratio mismatch');
    expect(screen.getByText(/for 300 participants/)).toHaveTextContent('$3.60 for 300 participants');
    // Previews apart, and the bill with them.
    expect(screen.getByTestId('monitor-preview-spend')).toHaveTextContent(
      'Previews (not counted above): $0.0150 over 2 of 3 preview runs (1,500 tokens)',
    );
    expect(screen.getByTestId('monitor-bill')).toHaveTextContent('$0.0390');
    expect(screen.getByTestId('monitor-cache')).toHaveTextContent('9,000 tokens read, 1,200 written');
    expect(screen.getAllByTestId('monitor-row')).toHaveLength(3);
    const beta = screen.getAllByTestId('monitor-row')[1] as HTMLElement;
    expect(within(beta).getByText('Sections (3)')).toBeInTheDocument();
    expect(within(beta).getByText('Stale')).toBeInTheDocument();
    // Whose chat a limit ended (docs/decisions/0073).
    expect(screen.getByRole('columnheader', { name: 'Chat ended by' })).toBeInTheDocument();
    const alpha = screen.getAllByTestId('monitor-row')[0] as HTMLElement;
    expect(within(alpha).getByText('Budget')).toBeInTheDocument();
    expect(within(beta).queryByText('Budget')).toBeNull();
    // The submission status Prolific reported (docs/decisions/0083), '-' before any.
    expect(screen.getByRole('columnheader', { name: 'On Prolific' })).toBeInTheDocument();
    expect(within(alpha).getByText('Timed out')).toBeInTheDocument();
    expect(within(beta).queryByText('Timed out')).toBeNull();

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Search by Prolific ID or login'), 'pid-al');
    expect(screen.getAllByTestId('monitor-row')).toHaveLength(1);
    await user.clear(screen.getByLabelText('Search by Prolific ID or login'));
    await user.selectOptions(screen.getByLabelText('Status'), 'screened_out');
    expect(screen.getAllByTestId('monitor-row')).toHaveLength(1);
    expect(screen.getByText('gamma@study.test')).toBeInTheDocument();
  });
});

describe('MonitorPanel time on step', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the time on step of those still going and "Done" for a finished participant (issue 34)', async () => {
    const finished = participant('done@study.test', 'PID-DONE', {
      status: 'completed',
      step: 'completed',
      pathway: 'complete',
      seconds_on_step: 0,
    });
    mockFetch({
      [`GET /api/experiments/${ID}/monitor`]: () =>
        json(200, { ...reply, participants: [...reply.participants, finished] }),
      [`GET /api/experiments/${ID}/monitor/stream`]: () => new Response('', { status: 200 }),
    });
    renderPage(<MonitorPanel experimentId={ID} />, { path: '/m', route: '/m' });
    const rows = await screen.findAllByTestId('monitor-row');
    expect(within(rows[0] as HTMLElement).getByText('1 min 15 s')).toBeInTheDocument();
    expect(within(rows[3] as HTMLElement).getByText('Done')).toBeInTheDocument();
    expect(within(rows[3] as HTMLElement).queryByText('0 s')).toBeNull();
  });
});

describe('MonitorPanel with a large study', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('draws at most 500 rows and says how to narrow them', async () => {
    const many = Array.from({ length: 520 }, (_, i) => participant(`p${i}@study.test`, `PID-${i}`));
    mockFetch({
      [`GET /api/experiments/${ID}/monitor`]: () => json(200, { ...reply, participants: many }),
      [`GET /api/experiments/${ID}/monitor/stream`]: () => new Response('', { status: 200 }),
    });
    renderPage(<MonitorPanel experimentId={ID} />, { path: '/m', route: '/m' });
    expect(await screen.findByText(/the first 500 of 520 matching/)).toBeInTheDocument();
    expect(screen.getAllByTestId('monitor-row')).toHaveLength(500);
  });

  it('lists test runs, marked, only when "Include test runs" is ticked; the counts stay the real ones', async () => {
    const preview = participant('preview-1@preview.invalid', 'PREVIEW-AB12CD34', {
      is_test: true,
      condition: 'control',
    });
    const calls = mockFetch({
      [`GET /api/experiments/${ID}/monitor`]: (call) =>
        json(
          200,
          call.url.includes('include_tests=true')
            ? { ...reply, participants: [...reply.participants, preview] }
            : reply,
        ),
      [`GET /api/experiments/${ID}/monitor/stream`]: () =>
        new Response('data: {"seq":10,"events":0}\n\n', { headers: { 'content-type': 'text/event-stream' } }),
    });
    renderPage(<MonitorPanel experimentId={ID} />, { path: '/m', route: '/m' });
    expect(await screen.findByTestId('monitor-total')).toHaveTextContent('5');
    expect(screen.getAllByTestId('monitor-row')).toHaveLength(3);
    expect(screen.queryByText('Test run')).not.toBeInTheDocument();
    const toggle = screen.getByRole('checkbox', { name: 'Include test runs' });
    expect(toggle).not.toBeChecked();
    expect(toggle).toHaveAccessibleDescription(/real participants only/);
    const snapshotUrls = () =>
      calls
        .filter((c) => c.url.includes('/monitor') && !c.url.includes('stream') && !c.url.includes('provider-health'))
        .map((c) => c.url);
    expect(new Set(snapshotUrls())).toEqual(new Set([`/api/experiments/${ID}/monitor`]));

    const user = userEvent.setup();
    await user.click(toggle);
    expect(toggle).toBeChecked();
    await screen.findByText('Test run');
    expect(snapshotUrls()).toContain(`/api/experiments/${ID}/monitor?include_tests=true`);
    const rows = screen.getAllByTestId('monitor-row');
    expect(rows).toHaveLength(4);
    expect(within(rows[3] as HTMLElement).getByText('Test run')).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).queryByText('Test run')).not.toBeInTheDocument();
    expect(screen.getByTestId('monitor-total')).toHaveTextContent('5');

    await user.click(toggle);
    await waitFor(() => expect(screen.getAllByTestId('monitor-row')).toHaveLength(3));
    expect(screen.queryByText('Test run')).not.toBeInTheDocument();
  });
});

describe('MonitorPanel settings by role (issue 34)', () => {
  afterEach(() => vi.unstubAllGlobals());

  const members = (role: 'owner' | 'editor' | 'viewer') => () =>
    json(200, { lab_wide: false, your_role: role, members: [] });

  it.each([
    ['editor', true],
    ['viewer', false],
  ] as const)('an admin who is its %s is offered the settings form: %s', async (role, offered) => {
    mockFetch({
      [`GET /api/experiments/${ID}/monitor`]: () => json(200, reply),
      [`GET /api/experiments/${ID}/monitor/stream`]: () => new Response('', { status: 200 }),
      [`GET /api/experiments/${ID}/members`]: members(role),
    });
    renderPage(<MonitorPanel experimentId={ID} />, { path: '/m', route: '/m' });
    expect(await screen.findByTestId('monitor-total')).toHaveTextContent('5');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Save monitor settings' }) !== null).toBe(offered));
  });
});

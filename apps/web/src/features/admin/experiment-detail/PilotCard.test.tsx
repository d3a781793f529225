import { PILOT_CAVEAT, type PilotReport, type PilotRun } from '@studychat/contracts/web';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../test-utils';
import { duration, PilotCard, pilotInput } from './PilotCard';

const ID = '99999999-9999-4999-8999-999999999999';
const RUN = '88888888-8888-4888-8888-888888888888';
const list = `/api/experiments/${ID}/pilots`;

function report(participants: number): PilotReport {
  const arm = (condition: string, label: string) => ({
    condition,
    label,
    share: 0.5,
    participants: participants / 2,
    completed: participants / 2,
    chatStarted: participants / 2,
    ruleReached: participants / 2,
    rounds: { min: 3, median: 4, max: 6 },
    minimumSeconds: 150,
    simulatedSeconds: 425,
    perParticipant: { inputTokens: 1200, outputTokens: 300, costUsd: 0.012 },
    atArmModel: null,
    projected: { participants: 100, inputTokens: 120000, outputTokens: 30000, costUsd: 1.2 },
    estimatedCostUsd: 1.5,
  });
  return {
    kind: 'built-in',
    studyTitle: 'MMR study',
    participants,
    targetSample: 200,
    seed: 42,
    durationMs: 1530,
    completed: participants,
    pathways: [
      { key: 'complete', label: 'whole study', reached: participants, why: null },
      {
        key: 'ceiling',
        label: 'baseline intention 7',
        reached: 0,
        why: "No persona's answers led here: 4 answered at baseline and none took this exit.",
      },
    ],
    arms: [arm('mmr', 'Vaccine information'), arm('control', 'Car seat information')],
    steps: [{ step: 'sections', reached: participants, minimumSeconds: 150, simulatedSeconds: 185 }],
    projected: { inputTokens: 240000, outputTokens: 60000, costUsd: 2.4 },
    warnings: [{ path: 'pathways.ceiling', message: 'No persona reached "baseline intention 7".' }],
    results: [
      {
        index: 0,
        persona: { ageGroup: '25-34', stance: 'sceptic', verbosity: 'terse', leaveTendency: 0.05 },
        userId: '77777777-7777-4777-8777-777777777777',
        prolificPid: 'PILOT-0A1B2C3D',
        condition: 'mmr',
        pathway: 'complete',
        lastStep: 'completed',
        stopped: null,
        simulatedSeconds: 430,
        chat: { rounds: 4, ruleReached: true, closed: null },
        inputTokens: 1200,
        outputTokens: 300,
        costUsd: 0.012,
      },
    ],
    caveat: PILOT_CAVEAT,
  };
}

function run(participants: number): PilotRun {
  return {
    id: RUN,
    experimentId: ID,
    createdBy: null,
    createdAt: '2026-11-28T10:00:00.000Z',
    finishedAt: '2026-11-28T10:00:02.000Z',
    report: report(participants),
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('PilotCard', () => {
  it('reads the size and target sample as whole numbers in range; shows durations readably', () => {
    expect(pilotInput(' 20 ', '300')).toEqual({ participants: 20, target: 300 });
    expect(pilotInput('51', '300')).toMatchObject({ field: 'participants' });
    expect(pilotInput('0', '300')).toMatchObject({ field: 'participants' });
    expect(pilotInput('5', 'lots')).toMatchObject({ field: 'target' });
    expect(duration(45)).toBe('45 s');
    expect(duration(425)).toBe('7 min 05 s');
    expect(duration(null)).toBe('-');
  });

  it('runs a pilot with the edited personas, waits with a loading state, then shows the report in tables', async () => {
    let release: () => void = () => undefined;
    const calls = mockFetch({
      [`GET ${list}`]: () => json(200, { runs: [] }),
      [`POST ${list}`]: (call) =>
        new Promise((resolve) => {
          release = () => resolve(json(201, run((call.body as { participants: number }).participants)));
        }),
    });
    renderPage(<PilotCard experimentId={ID} />, { path: '/x', route: '/x' });
    expect(await screen.findByText('No pilot has been run for this experiment yet.')).toBeInTheDocument();
    const user = userEvent.setup();
    const size = screen.getByLabelText('Simulated participants');
    await user.clear(size);
    await user.type(size, '4');
    // Four personas sampled; the second made a sceptic.
    await user.click(screen.getByText(/Personas \(4, seed/));
    expect(screen.getAllByTestId(/^pilot-persona-/)).toHaveLength(4);
    await user.selectOptions(screen.getByLabelText('Persona 2 stance'), 'sceptic');
    await user.click(screen.getByRole('button', { name: 'Run pilot' }));

    expect(await screen.findByRole('button', { name: 'Running the pilot...' })).toBeDisabled();
    expect(screen.getByText(/simulated participants are walking the study/)).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST');
    const body = post?.body as { participants: number; target_sample: number; personas: { stance: string }[] };
    expect(body.participants).toBe(4);
    expect(body.target_sample).toBe(200);
    expect(body.personas).toHaveLength(4);
    expect(body.personas[1]?.stance).toBe('sceptic');

    release();
    expect(await screen.findByTestId('pilot-summary')).toHaveTextContent('4 of 4 simulated participants completed');
    expect(screen.getByText(/cannot tell you effect sizes/)).toBeInTheDocument();
    expect(screen.getByTestId('pilot-warnings')).toHaveTextContent('No persona reached "baseline intention 7".');
    expect(screen.getByTestId('pilot-pathway-ceiling')).toHaveTextContent(/none took this exit/);
    const mmr = screen.getByTestId('pilot-arm-mmr');
    expect(within(mmr).getByRole('rowheader')).toHaveTextContent('Vaccine information');
    expect(mmr).toHaveTextContent('2 of 2');
    expect(mmr).toHaveTextContent('3 / 4 / 6');
    expect(mmr).toHaveTextContent('2 min 30 s');
    expect(mmr).toHaveTextContent('$0.0120');
    expect(mmr).toHaveTextContent('$1.20');
    expect(screen.getByTestId('pilot-step-sections')).toHaveTextContent('2 min 30 s3 min 05 s');
    expect(screen.getByRole('link', { name: 'PILOT-0A1B2C3D' })).toHaveAttribute(
      'href',
      '/admin/user/77777777-7777-4777-8777-777777777777',
    );
  });

  it('refuses a size out of range at the field, without a request', async () => {
    const calls = mockFetch({ [`GET ${list}`]: () => json(200, { runs: [] }) });
    renderPage(<PilotCard experimentId={ID} />, { path: '/x', route: '/x' });
    const user = userEvent.setup();
    const size = screen.getByLabelText('Simulated participants');
    await user.clear(size);
    await user.type(size, '80');
    await user.click(screen.getByRole('button', { name: 'Run pilot' }));
    expect(size).toHaveAccessibleDescription(/from 1 to 50/);
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('lets an analyst read the latest report but not start a run', async () => {
    mockFetch({
      [`GET ${list}`]: () =>
        json(200, {
          runs: [
            {
              id: RUN,
              createdAt: '2026-11-28T10:00:00.000Z',
              participants: 6,
              targetSample: 200,
              completed: 6,
              warnings: 1,
            },
          ],
        }),
      [`GET ${list}/${RUN}`]: () => json(200, run(6)),
    });
    renderPage(<PilotCard experimentId={ID} />, { path: '/x', route: '/x', as: 'analyst' });
    expect(await screen.findByTestId('pilot-summary')).toHaveTextContent('6 of 6 simulated participants completed');
    expect(screen.queryByRole('button', { name: 'Run pilot' })).not.toBeInTheDocument();
  });
});

import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../test-utils';
import { PreviewPanel } from './PreviewPanel';

const BUILT_IN = [
  { id: 'mmr', label: 'Vaccine information (MMR)' },
  { id: 'control', label: 'Car seat information (control)' },
];

const EXP = '33333333-3333-4333-8333-333333333333';

afterEach(() => vi.unstubAllGlobals());

describe('PreviewPanel', () => {
  it('creates a preview in the chosen condition and shows its one-time link with the private-window advice', async () => {
    const calls = mockFetch({
      [`POST /api/experiments/${EXP}/previews`]: (call) =>
        json(201, {
          assignment_id: crypto.randomUUID(),
          user_id: crypto.randomUUID(),
          condition: (call.body as { condition: string }).condition,
          prolific_pid: 'PREVIEW-0A1B2C3D',
          path: '/preview#secret-token',
          expires_at: '2026-11-20T10:30:00.000Z',
        }),
    });
    renderPage(<PreviewPanel experimentId={EXP} conditions={BUILT_IN} />, { path: '/x', route: '/x' });
    await userEvent.click(screen.getByRole('button', { name: 'Preview control' }));
    const input = await screen.findByRole('textbox', { name: 'Preview link' });
    expect(input).toHaveValue(`${window.location.origin}/preview#secret-token`);
    expect(calls).toEqual([
      { method: 'POST', url: `/api/experiments/${EXP}/previews`, body: { condition: 'control' } },
    ]);
    expect(screen.getByText(/Open this link in a private window/)).toBeInTheDocument();
    expect(screen.getByText('PREVIEW-0A1B2C3D')).toBeInTheDocument();
  });

  it("offers one preview per condition of the study's version, with its label", async () => {
    mockFetch({});
    const three = [
      { id: 'sleep', label: 'Sleep information' },
      { id: 'teeth', label: 'Tooth brushing (control)' },
      { id: 'screens', label: 'Screen time' },
    ];
    renderPage(<PreviewPanel experimentId={EXP} conditions={three} />, { path: '/x', route: '/x' });
    expect(screen.getAllByRole('button', { name: /^Preview / }).map((b) => b.textContent)).toEqual([
      'Preview sleep',
      'Preview teeth',
      'Preview screens',
    ]);
    expect(screen.getByText('Screen time')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Preview mmr' })).toBeNull();
  });

  it('shows the server’s refusal', async () => {
    mockFetch({
      [`POST /api/experiments/${EXP}/previews`]: () => json(404, { error: 'Experiment not found', code: 'NOT_FOUND' }),
    });
    renderPage(<PreviewPanel experimentId={EXP} conditions={BUILT_IN} />, { path: '/x', route: '/x' });
    await userEvent.click(screen.getByRole('button', { name: 'Preview mmr' }));
    expect(await screen.findByText(/Experiment not found/)).toBeInTheDocument();
  });
});

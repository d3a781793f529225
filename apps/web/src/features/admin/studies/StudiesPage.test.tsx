import {
  FLOW_TEMPLATES,
  type FlowDefinition,
  type StudyVersion,
  type StudyVersionSummary,
} from '@studychat/contracts/web';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../test-utils';
import { StudiesPage } from './StudiesPage';
import { fixtureDefinition } from './study-fixture';

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

describe('StudiesPage: comparing two versions', () => {
  const template = FLOW_TEMPLATES.find((t) => t.id === 'three-arm') as FlowDefinition;

  function full(summary: StudyVersionSummary, definition: unknown): StudyVersion {
    return { ...summary, definition } as StudyVersion;
  }

  it('compares two flows step by step: added, removed, moved and changed fields', async () => {
    const older = version('Three arms v1', { study_id: template.id });
    const newer = version('Three arms v2', { study_id: template.id });
    const changed = structuredClone(template);
    const at = changed.steps.findIndex((s) => s.id === 'eligible');
    changed.steps.splice(at, 1);
    changed.steps.splice(1, 0, { id: 'note', type: 'page', title: 'A note', blocks: [], button: 'Next' });
    const eligibility = changed.steps.find((s) => s.id === 'eligibility');
    if (eligibility?.type !== 'questions') throw new Error('fixture');
    eligibility.title = 'About your family';
    const chat = changed.steps.find((s) => s.id === 'conversation');
    const arm = chat?.type === 'chat' ? chat.arms.chatbot : undefined;
    if (!arm) throw new Error('fixture');
    arm.systemPrompt += ' Keep every answer under 80 words.';
    changed.pathways.push({ key: 'timeout', label: 'timed out' });
    mockFetch({
      'GET /api/admin/study-versions': () => json(200, [older, newer]),
      [`GET /api/admin/study-versions/${older.id}`]: () => json(200, full(older, template)),
      [`GET /api/admin/study-versions/${newer.id}`]: () => json(200, full(newer, changed)),
    });
    show();
    const ui = userEvent.setup();
    await ui.selectOptions(await screen.findByRole('combobox', { name: 'From' }), 'Three arms v1');
    await ui.selectOptions(screen.getByRole('combobox', { name: 'To' }), 'Three arms v2');
    const steps = await screen.findByRole('region', { name: 'Steps' });
    expect(screen.getByText(/Steps: 1 added, 1 removed, 0 moved, 2 changed\./)).toBeInTheDocument();
    expect(steps).toHaveTextContent('note (page): added at position 2');
    expect(steps).toHaveTextContent(`eligible (screen): removed (was at position ${at + 1})`);
    expect(steps).toHaveTextContent('eligibility (questions): 1 field changed');
    expect(steps).toHaveTextContent('title: About you → About your family');
    expect(steps).toHaveTextContent('arms.chatbot.systemPrompt changed');
    expect(steps).toHaveTextContent('+ Keep every answer under 80 words.');
    expect(screen.getByRole('region', { name: 'Pathways' })).toHaveTextContent('Pathway timeout added');
    // No lines of JSON for flows.
    expect(screen.queryByLabelText('Differences')).toBeNull();
  });

  it('keeps the line diff for versions in the built-in shape', async () => {
    const a = version('Built-in A');
    const b = version('Built-in B');
    const definition = fixtureDefinition();
    mockFetch({
      'GET /api/admin/study-versions': () => json(200, [a, b]),
      [`GET /api/admin/study-versions/${a.id}`]: () => json(200, full(a, definition)),
      [`GET /api/admin/study-versions/${b.id}`]: () => json(200, full(b, { ...definition, title: 'Another title' })),
    });
    show();
    const ui = userEvent.setup();
    await ui.selectOptions(await screen.findByRole('combobox', { name: 'From' }), 'Built-in A');
    await ui.selectOptions(screen.getByRole('combobox', { name: 'To' }), 'Built-in B');
    expect(await screen.findByLabelText('Differences')).toHaveTextContent('+ "title": "Another title"');
    expect(screen.queryByRole('region', { name: 'Steps' })).toBeNull();
  });
});

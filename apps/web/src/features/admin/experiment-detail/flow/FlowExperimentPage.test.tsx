import { FLOW_TEMPLATES, type Experiment, type FlowProgressReply, type StudyVersion } from '@studychat/contracts/web';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../../test-utils';
import { ExperimentDetailPage } from '../ExperimentDetailPage';

// The experiment page of a study written as a flow (issue 30): its own progress and pathway codes; the edit dialog
// changes the name and description only (the built-in study's three codes are not this study's).

const ID = '99999999-9999-4999-8999-999999999999';
const VERSION = '88888888-8888-4888-8888-888888888888';
const flow = FLOW_TEMPLATES[0];
if (!flow) throw new Error('no template');

const experiment: Experiment = {
  id: ID,
  name: 'Belief study',
  description: null,
  completion_codes: { complete: null, exitnoqualms: null, exitceiling: null },
  study_version_id: VERSION,
  state: 'open',
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-02T10:00:00.000Z',
};

const version: StudyVersion = {
  id: VERSION,
  label: 'Belief change',
  study_id: flow.id,
  title: flow.title,
  parent_id: null,
  is_default: false,
  experiments: 1,
  locked: false,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
  definition: flow,
};

const progress: FlowProgressReply = {
  total: 0,
  byStep: [],
  byPathway: flow.pathways.map((p) => ({ key: p.key, label: p.label, count: 0 })),
  byCondition: flow.conditions.map((c) => ({ id: c.id, label: c.label, count: 0 })),
  participants: [],
};

describe('the experiment page of a flow', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("edits the name and description only: the flow's codes are on their own card", async () => {
    const calls = mockFetch({
      [`GET /api/experiments/${ID}`]: () => json(200, experiment),
      [`GET /api/admin/study-versions/${VERSION}`]: () => json(200, version),
      [`GET /api/experiments/${ID}/flow-progress`]: () => json(200, progress),
      [`GET /api/experiments/${ID}/flow-codes`]: () =>
        json(200, {
          pathways: flow.pathways.map((p) => ({ key: p.key, label: p.label, description: null, code: null })),
        }),
      [`PUT /api/experiments/${ID}`]: () => json(200, { ...experiment, name: 'Belief study, wave 1' }),
    });
    const user = userEvent.setup();
    renderPage(<ExperimentDetailPage />, { path: `/admin/experiments/${ID}`, route: '/admin/experiments/:id' });
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Experiment' });
    expect(within(dialog).queryByText('Completion codes')).not.toBeInTheDocument();
    expect(within(dialog).queryByLabelText(/Completion code:/)).not.toBeInTheDocument();
    const name = within(dialog).getByLabelText(/Name/);
    await user.clear(name);
    await user.type(name, 'Belief study, wave 1');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    const put = calls.find((c) => c.method === 'PUT' && c.url === `/api/experiments/${ID}`);
    expect(put?.body).toEqual({ name: 'Belief study, wave 1' });
  });
});

describe('previewing a flow as a participant', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("offers a preview in each of the flow's conditions and shows the link for the chosen one", async () => {
    const calls = mockFetch({
      [`GET /api/experiments/${ID}`]: () => json(200, experiment),
      [`GET /api/admin/study-versions/${VERSION}`]: () => json(200, version),
      [`GET /api/experiments/${ID}/flow-progress`]: () => json(200, progress),
      [`GET /api/experiments/${ID}/flow-codes`]: () =>
        json(200, {
          pathways: flow.pathways.map((p) => ({ key: p.key, label: p.label, description: null, code: null })),
        }),
      [`POST /api/experiments/${ID}/previews`]: (call) =>
        json(201, {
          assignment_id: crypto.randomUUID(),
          user_id: crypto.randomUUID(),
          condition: (call.body as { condition: string }).condition,
          prolific_pid: 'PREVIEW-0A1B2C3D',
          path: '/preview#token',
          expires_at: '2026-11-20T10:30:00.000Z',
        }),
    });
    const user = userEvent.setup();
    renderPage(<ExperimentDetailPage />, { path: `/admin/experiments/${ID}`, route: '/admin/experiments/:id' });
    const card = (await screen.findByRole('heading', { name: 'Preview as Participant' })).closest('section, div');
    if (!card) throw new Error('no card');
    const buttons = within(card as HTMLElement).getAllByRole('button', { name: /^Preview / });
    expect(buttons.map((b) => b.textContent)).toEqual(flow.conditions.map((c) => `Preview ${c.id}`));
    const last = flow.conditions.at(-1);
    if (!last) throw new Error('no condition');
    await user.click(within(card as HTMLElement).getByRole('button', { name: `Preview ${last.id}` }));
    expect(await screen.findByLabelText('Preview link')).toHaveValue(`${window.location.origin}/preview#token`);
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ condition: last.id });
  });
});

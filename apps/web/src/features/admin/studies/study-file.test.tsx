import { FLOW_TEMPLATES, type FlowDefinition, type StudyVersion } from '@studychat/contracts/web';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../test-utils';
import { FlowOverviewCard } from './FlowOverviewCard';
import { draftVersion, VERSION_ID } from './study-fixture';
import { readStudyFile, studyFileName, studyFileText } from './study-file';
import { StudiesPage } from './StudiesPage';
import { StudyEditorPage } from './StudyEditorPage';

// A study shared as a file (issue 31), and a flow's overview before launch.

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const template = FLOW_TEMPLATES[0] as FlowDefinition;
const threeArm = FLOW_TEMPLATES.find((f) => f.id === 'three-arm') as FlowDefinition;

describe('a study file', () => {
  it('is named after the label and reads back as the definition it holds', () => {
    expect(studyFileName('Belief change, wave 2!')).toBe('belief-change-wave-2.study.json');
    expect(studyFileName('***')).toBe('study.study.json');
    const read = readStudyFile(studyFileText(template));
    expect(read).toEqual({ ok: true, definition: template, title: template.title });
    expect(readStudyFile('{ not json')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^The file is not JSON/),
    });
    expect(readStudyFile('[1, 2]')).toEqual({
      ok: false,
      error: 'The file does not hold a study definition (a JSON object).',
    });
  });

  it("downloads a version's definition from its page", async () => {
    mockFetch({ [`GET /api/admin/study-versions/${VERSION_ID}`]: () => json(200, draftVersion()) });
    const blobs: Blob[] = [];
    vi.stubGlobal('URL', {
      ...URL,
      createObjectURL: (blob: Blob) => {
        blobs.push(blob);
        return 'blob:study';
      },
      revokeObjectURL: () => undefined,
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderPage(<StudyEditorPage />, { path: `/admin/studies/${VERSION_ID}`, route: '/admin/studies/:id' });
    await user.click(await screen.findByRole('button', { name: 'Download study file' }));
    expect(click).toHaveBeenCalledOnce();
    expect(blobs).toHaveLength(1);
    expect(JSON.parse(await (blobs[0] as Blob).text())).toEqual(draftVersion().definition);
  });

  it('creates a draft from an uploaded file, and says what is wrong with a bad one', async () => {
    const created: StudyVersion = { ...draftVersion(), id: '22222222-2222-4222-8222-222222222222' };
    let reply = () => json(201, created);
    const calls = mockFetch({
      'GET /api/admin/study-versions': () => json(200, [draftVersion()]),
      'POST /api/admin/study-versions': () => reply(),
    });
    const user = userEvent.setup();
    renderPage(<StudiesPage />, { path: '/admin/studies', route: '/admin/studies' });
    const input = await screen.findByLabelText('Study file (.json)');

    await user.upload(input, new File(['{ oops'], 'broken.json', { type: 'application/json' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/The file is not JSON/);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    reply = () =>
      json(400, {
        error: 'The study definition is not valid',
        code: 'STUDY_INVALID',
        issues: [{ path: 'steps.2.pathway', message: '"gone" is not one of the study\'s pathways' }],
      });
    await user.upload(input, new File([studyFileText(threeArm)], 'three-arm.study.json'));
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert).toHaveTextContent('steps.2.pathway'));
    const post = calls.filter((c) => c.method === 'POST').at(-1);
    expect(post?.body).toEqual({
      label: `${threeArm.title} (from three-arm.study.json)`,
      definition: threeArm,
    });
  });
});

describe("a flow's overview", () => {
  it('lists what each condition walks, and nothing to look at for a template', () => {
    renderPage(<FlowOverviewCard flow={threeArm} />, { path: '/', route: '/' });
    const rows = screen.getAllByTestId('walk');
    expect(rows).toHaveLength(3);
    expect(within(rows[1] as HTMLElement).getByText('no chat')).toBeInTheDocument();
    expect(screen.getByText('Nothing to look at before launch.')).toBeInTheDocument();
  });

  it('shows the warnings a researcher should see before launch', () => {
    const spare: FlowDefinition = { ...threeArm, pathways: [...threeArm.pathways, { key: 'spare', label: 'Spare' }] };
    renderPage(<FlowOverviewCard flow={spare} />, { path: '/', route: '/' });
    expect(screen.getByText('To look at before launch')).toBeInTheDocument();
    expect(screen.getByText(/no participant can end on the pathway "spare"/)).toBeInTheDocument();
  });
});

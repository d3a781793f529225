import {
  studyDefinition,
  type DetailedParticipantRow,
  type Experiment,
  type StudyLogin,
  type StudyLoginsReply,
} from '@studychat/contracts/web';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage, type Call } from '../test-utils';
import { ExperimentDetailPage } from './ExperimentDetailPage';
import { StudyLoginsPanel } from './StudyLoginsPanel';

const ID = '99999999-9999-4999-8999-999999999999';
const base = `/api/experiments/${ID}`;

const experiment: Experiment = {
  id: ID,
  name: 'MMR main study',
  description: null,
  completion_codes: { complete: 'C-OLD', exitnoqualms: null, exitceiling: null },
  study_version_id: null,
  state: 'open',
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-02T10:00:00.000Z',
};

function row(
  user: string,
  condition: 'mmr' | 'control' | null,
  pre: number | null,
  post: number | null,
): DetailedParticipantRow {
  return {
    assignment_id: crypto.randomUUID(),
    user_id: `${user.repeat(8)}-0000-4000-8000-000000000000`,
    assigned_condition: condition,
    last_login_at: null,
    chat_turns: 3,
    user_char_count: 120,
    pre_intent: pre,
    post_intent: post,
    delta: pre !== null && post !== null ? post - pre : null,
    status: 'in_progress',
    is_test: false,
  };
}

const rows = [row('a', 'mmr', 3, 6), row('b', null, null, null), row('c', 'control', 4, 4), row('d', 'mmr', 5, null)];

function handlers(over: Record<string, (call: Call) => Response> = {}) {
  return mockFetch({
    [`GET ${base}`]: () => json(200, experiment),
    [`GET ${base}/participant-summary`]: () =>
      json(200, {
        total: 4,
        conditions: { mmr: 2, control: 1 },
        screened_out: { confirm: 1, ceiling: 0 },
        not_yet_assigned: 0,
        in_progress: 2,
        stale: 1,
        completed: { complete: 0, confirm: 0, ceiling: 0 },
      }),
    [`GET ${base}/participants-detailed`]: () => json(200, rows),
    [`GET ${base}/logins`]: () => json(200, { total: 0, used: 0, unused: 0, logins: [] }),
    [`GET ${base}/quotas`]: () =>
      json(200, { quotas: [], conditions: ['mmr', 'control'], strata: ['1-2', '3-4', '5-6'], full: false }),
    ...over,
  });
}

const show = () =>
  renderPage(<ExperimentDetailPage />, { path: `/admin/experiments/${ID}`, route: '/admin/experiments/:id' });

const userIds = () =>
  within(screen.getByRole('region', { name: 'Participants' }))
    .getAllByRole('link')
    .map((a) => a.textContent?.charAt(0));

/** Replaces the clipboard (after userEvent.setup(), which installs its own). */
function stubClipboard(writeText: (text: string) => Promise<void>) {
  const spy = vi.fn(writeText);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText: spy }, configurable: true });
  return spy;
}
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('ExperimentDetailPage', () => {
  it('shows details, summary, chart and participants sorted by condition ascending with empty last', async () => {
    handlers();
    show();
    expect(await screen.findByText('MMR main study')).toBeInTheDocument();
    expect(screen.getByText('No description provided.')).toBeInTheDocument();
    expect(screen.getByText('C-OLD')).toBeInTheDocument();
    expect(screen.getAllByText('-').length).toBeGreaterThanOrEqual(2);
    expect(screen.getByRole('link', { name: /Back to Experiments/ })).toHaveAttribute('href', '/admin/experiments');

    expect(await screen.findByRole('heading', { name: 'Participants (4)' })).toBeInTheDocument();
    expect(userIds()).toEqual(['c', 'a', 'd', 'b']);
    expect(screen.getByRole('link', { name: 'aaaaaaaa...' })).toHaveAttribute(
      'href',
      '/admin/user/aaaaaaaa-0000-4000-8000-000000000000',
    );

    const summary = await screen.findByText('Total');
    expect(summary.nextElementSibling).toHaveTextContent('4');

    // The screen-reader table behind the chart: participants with both values only.
    const chartTable = screen.getByRole('table', { name: 'Mean intention before and after, per condition' });
    expect(within(chartTable).getByRole('row', { name: /mmr/ })).toHaveTextContent('mmr13.006.00');
    expect(within(chartTable).getByRole('row', { name: /control/ })).toHaveTextContent('control14.004.00');
  });

  it('sorts by any header, toggling direction, with empty values last both ways', async () => {
    handlers();
    show();
    await screen.findByRole('heading', { name: 'Participants (4)' });
    const ui = userEvent.setup();
    await ui.click(screen.getByRole('button', { name: /Post Intent/ }));
    expect(userIds()).toEqual(['c', 'a', 'b', 'd']);
    await ui.click(screen.getByRole('button', { name: /Post Intent/ }));
    expect(userIds()).toEqual(['a', 'c', 'b', 'd']);
    await ui.click(screen.getByRole('button', { name: /Condition/ }));
    expect(userIds()).toEqual(['c', 'a', 'd', 'b']);
    await ui.click(screen.getByRole('button', { name: /Condition/ }));
    expect(userIds()).toEqual(['a', 'd', 'c', 'b']);
  });

  it("shows 'No participants found.' and the summary error", async () => {
    handlers({
      [`GET ${base}/participants-detailed`]: () => json(200, []),
      [`GET ${base}/participant-summary`]: () => new Response('', { status: 500 }),
    });
    show();
    expect(await screen.findByText('No participants found.')).toBeInTheDocument();
    expect(await screen.findByText('Error loading summary: Failed to fetch participant summary')).toBeInTheDocument();
  });

  it("shows 'Failed to load data' when the experiment cannot be loaded", async () => {
    handlers({ [`GET ${base}`]: () => json(404, { error: 'Experiment not found', code: 'NOT_FOUND' }) });
    show();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load data');
    expect(alert).toHaveTextContent('Experiment not found');
  });

  describe('Edit Experiment', () => {
    async function openEdit() {
      show();
      const ui = userEvent.setup();
      await ui.click(await screen.findByRole('button', { name: 'Edit' }));
      return ui;
    }

    it('sends only the changed name, then closes', async () => {
      const calls = handlers({ [`PUT ${base}`]: () => json(200, { ...experiment, name: 'Renamed' }) });
      const ui = await openEdit();
      const name = screen.getByLabelText('Name *');
      await ui.clear(name);
      await ui.type(name, 'Renamed');
      await ui.click(screen.getByRole('button', { name: 'Save Changes' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      const writes = calls.filter((c) => c.method !== 'GET');
      expect(writes).toEqual([{ method: 'PUT', url: base, body: { name: 'Renamed' } }]);
    });

    it('sends only changed non-empty codes to completion-codes', async () => {
      const calls = handlers({
        [`PUT ${base}/completion-codes`]: () => json(200, { codes: experiment.completion_codes }),
      });
      const ui = await openEdit();
      expect(screen.getByLabelText('Completion code: complete')).toHaveValue('C-OLD');
      const noQualms = screen.getByLabelText('Completion code: exitnoqualms');
      expect(noQualms).toHaveAttribute('placeholder', 'Not set');
      await ui.type(noQualms, '  NQ-1 ');
      await ui.clear(screen.getByLabelText('Completion code: complete'));
      await ui.click(screen.getByRole('button', { name: 'Save Changes' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(calls.filter((c) => c.method !== 'GET')).toEqual([
        { method: 'PUT', url: `${base}/completion-codes`, body: { codes: { exitnoqualms: 'NQ-1' } } },
      ]);
    });

    it("names the codes by the pinned study's pathways: in the card and as the form's hints", async () => {
      const versionId = '77777777-7777-4777-8777-777777777777';
      const confirm = { label: 'bedtime already settled', description: 'Given when the bedtime is settled.' };
      handlers({
        [`GET ${base}`]: () => json(200, { ...experiment, study_version_id: versionId }),
        [`GET /api/admin/study-versions/${versionId}`]: () =>
          json(200, { id: versionId, label: 'Sleep', definition: { ...studyDefinition, pathways: { confirm } } }),
      });
      show();
      expect(await screen.findByText('Code: exitnoqualms (bedtime already settled)')).toBeInTheDocument();
      // The pathways it does not name keep the spec's words.
      expect(screen.getByText('Code: complete (whole study)')).toBeInTheDocument();
      const ui = userEvent.setup();
      await ui.click(screen.getByRole('button', { name: 'Edit' }));
      expect(screen.getByLabelText('Completion code: exitnoqualms')).toHaveAccessibleDescription(
        'Pathway: bedtime already settled. Given when the bedtime is settled.',
      );
      expect(screen.getByLabelText('Completion code: exitceiling')).toHaveAccessibleDescription(
        'Pathway: baseline intention 7. Given when baseline intention is already 7.',
      );
    });

    it('sends nothing when nothing changed', async () => {
      const calls = handlers();
      const ui = await openEdit();
      await ui.click(screen.getByRole('button', { name: 'Save Changes' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
    });

    it('shows the server error in the modal and keeps it open', async () => {
      handlers({ [`PUT ${base}`]: () => json(400, { error: 'Name is too long', code: 'VALIDATION_FAILED' }) });
      const ui = await openEdit();
      await ui.type(screen.getByLabelText('Description'), 'More');
      await ui.click(screen.getByRole('button', { name: 'Save Changes' }));
      expect(await within(screen.getByRole('dialog')).findByRole('alert')).toHaveTextContent('Name is too long');
    });
  });

  describe('Withdraw a Participant', () => {
    it('asks for confirmation naming the id, then deletes and reports what was deleted', async () => {
      const reply = {
        prolificId: 'PID-9',
        deleted: { participants: 1, messages: 4, surveyResponses: 3, sectionRecords: 2, events: 9 },
      };
      const calls = handlers({ [`POST ${base}/withdrawals`]: () => json(200, reply) });
      show();
      const ui = userEvent.setup();
      const panel =
        (await screen.findByRole('heading', { name: 'Withdraw a Participant' })).closest('section') ?? document.body;
      await ui.click(within(panel as HTMLElement).getByRole('button', { name: 'Delete data...' }));
      expect(await screen.findByText('Enter the Prolific id of the participant who withdrew.')).toBeInTheDocument();
      await ui.type(screen.getByLabelText('Prolific id'), ' PID-9 ');
      await ui.click(screen.getByRole('button', { name: 'Delete data...' }));
      const dialog = await screen.findByRole('dialog', { name: "Delete this participant's data?" });
      expect(dialog).toHaveTextContent('All data of Prolific id PID-9 in this experiment will be deleted for good.');
      expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
      await ui.click(within(dialog).getByRole('button', { name: 'Delete data' }));
      expect(await screen.findByRole('status')).toHaveTextContent(
        'Deleted the data of Prolific id PID-9: 1 participation(s), 4 chat message(s), 3 survey response(s), 2 section record(s), 9 event(s).',
      );
      expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ prolificId: 'PID-9' }]);
    });

    it('is not shown to an analyst', async () => {
      handlers();
      renderPage(<ExperimentDetailPage />, {
        path: `/admin/experiments/${ID}`,
        route: '/admin/experiments/:id',
        as: 'analyst',
      });
      await screen.findByText('MMR main study');
      expect(screen.queryByRole('heading', { name: 'Withdraw a Participant' })).not.toBeInTheDocument();
    });
  });

  describe('Generate Participant Credentials', () => {
    const creds = [
      { email: 'p1@study.example', password: 'pw-one' },
      { email: 'p2@study.example', password: 'pw-two' },
    ];

    it.each(['0', '-3', 'abc'])('refuses the count %j without calling the server', async (input) => {
      const calls = handlers();
      show();
      const ui = userEvent.setup();
      const count = await screen.findByLabelText('Number of credentials');
      expect(count).toHaveValue(10);
      fireEvent.change(count, { target: { value: input } });
      await ui.click(screen.getByRole('button', { name: 'Generate' }));
      expect(
        screen.getByText('Please enter a valid number of credentials to generate (must be > 0).'),
      ).toBeInTheDocument();
      expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    });

    it("shows the server's message when generation fails", async () => {
      handlers({
        [`POST ${base}/batch-credentials`]: () =>
          json(400, { error: 'At most 500 credentials can be generated at once', code: 'VALIDATION_FAILED' }),
      });
      show();
      const ui = userEvent.setup();
      const count = await screen.findByLabelText('Number of credentials');
      await ui.clear(count);
      await ui.type(count, '501');
      await ui.click(screen.getByRole('button', { name: 'Generate' }));
      expect(
        await screen.findByText('Failed to generate credentials: At most 500 credentials can be generated at once'),
      ).toBeInTheDocument();
    });

    it('generates, shows the once-only warning, and copies them as CSV with a 3 s confirmation', async () => {
      const calls = handlers({ [`POST ${base}/batch-credentials`]: () => json(201, creds) });
      show();
      const ui = userEvent.setup();
      await ui.click(await screen.findByRole('button', { name: 'Generate' }));
      expect(await screen.findByText('pw-two')).toBeInTheDocument();
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ count: 10 });
      expect(screen.getByText(/passwords are shown only once/)).toBeInTheDocument();

      const writeText = stubClipboard(() => Promise.resolve());
      vi.useFakeTimers();
      fireEvent.click(screen.getByRole('button', { name: 'Copy as CSV' }));
      await act(async () => {
        await Promise.resolve();
      });
      expect(writeText).toHaveBeenCalledWith('Username,Password\np1@study.example,pw-one\np2@study.example,pw-two\n');
      expect(screen.getByText('Credentials copied to clipboard as CSV!')).toBeInTheDocument();
      act(() => vi.advanceTimersByTime(2999));
      expect(screen.getByText('Credentials copied to clipboard as CSV!')).toBeInTheDocument();
      act(() => vi.advanceTimersByTime(1));
      expect(screen.queryByText('Credentials copied to clipboard as CSV!')).not.toBeInTheDocument();
    });

    it('copies one password with a 2 s icon confirmation, and says so when the clipboard refuses', async () => {
      handlers({ [`POST ${base}/batch-credentials`]: () => json(201, creds) });
      show();
      const ui = userEvent.setup();
      await ui.click(await screen.findByRole('button', { name: 'Generate' }));
      await screen.findByText('pw-one');

      const writeText = stubClipboard(() => Promise.resolve());
      vi.useFakeTimers();
      fireEvent.click(screen.getByRole('button', { name: 'Copy password for p1@study.example' }));
      await act(async () => {
        await Promise.resolve();
      });
      expect(writeText).toHaveBeenCalledWith('pw-one');
      expect(screen.getByRole('button', { name: 'Copy password for p1@study.example: copied' })).toBeInTheDocument();
      act(() => vi.advanceTimersByTime(2000));
      expect(screen.getByRole('button', { name: 'Copy password for p1@study.example' })).toBeInTheDocument();

      stubClipboard(() => Promise.reject(new Error('denied')));
      fireEvent.click(screen.getByRole('button', { name: 'Copy as CSV' }));
      await act(async () => {
        await Promise.resolve();
        await Promise.resolve();
      });
      expect(screen.getByText('Failed to copy to clipboard. Please copy manually.')).toBeInTheDocument();
    });
  });

  describe('Prolific credentials and study logins', () => {
    /** Captures what the page saves as a download. */
    function captureDownloads() {
      const saved: { name: string; blob: Blob }[] = [];
      let pending: Blob | undefined;
      vi.stubGlobal('URL', {
        ...URL,
        createObjectURL: (blob: Blob) => {
          pending = blob;
          return 'blob:fake';
        },
        revokeObjectURL: () => undefined,
      });
      const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
        this: HTMLAnchorElement,
      ) {
        if (pending) saved.push({ name: this.download, blob: pending });
      });
      return { saved, restore: () => click.mockRestore() };
    }

    const batch = Array.from({ length: 12 }, (_, i) => ({
      email: `study-${String(i).padStart(8, 'x')}@studychat.local`,
      password: `Pw${i}abcdefghijkl`,
    }));

    it('adds the share of spares to the batch and downloads it for Prolific without a header line', async () => {
      const calls = handlers({ [`POST ${base}/batch-credentials`]: () => json(201, batch) });
      show();
      const ui = userEvent.setup();
      const spares = await screen.findByLabelText('Spares (%)');
      expect(spares).toHaveValue(0);
      await ui.clear(spares);
      await ui.type(spares, '20');
      expect(
        screen.getByText('12 logins: 10 plus 2 spares for participants who return the study or time out on Prolific.'),
      ).toBeInTheDocument();
      await ui.click(screen.getByRole('button', { name: 'Generate' }));
      await screen.findByText(batch[11]?.password ?? '');
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ count: 12 });

      const downloads = captureDownloads();
      await ui.click(screen.getByRole('button', { name: 'Download for Prolific (CSV)' }));
      expect(downloads.saved).toHaveLength(1);
      expect(downloads.saved[0]?.name).toMatch(/^prolific-credentials-99999999-\d{8}-\d{4}\.csv$/);
      const text = (await downloads.saved[0]?.blob.text()) ?? '';
      expect(text.split('\n')).toEqual([...batch.map((c) => `${c.email},${c.password}`), '']);
      downloads.restore();
    });

    it('lists the logins as used or unused, reloading after a new batch', async () => {
      const login = (email: string, status: StudyLogin['status'], pid: string | null = null): StudyLogin => ({
        email,
        batch_id: 'b1',
        created_at: '2026-11-20T10:00:00.000Z',
        last_login_at: status === 'unused' ? null : '2026-11-21T10:00:00.000Z',
        prolific_pid: pid,
        status,
      });
      const reply: StudyLoginsReply = {
        total: 4,
        used: 3,
        unused: 1,
        logins: [
          login('study-aaaaaaaa@studychat.local', 'completed', 'PID-A'),
          login('study-bbbbbbbb@studychat.local', 'joined', 'PID-B'),
          login('study-cccccccc@studychat.local', 'logged_in'),
          login('study-dddddddd@studychat.local', 'unused'),
        ],
      };
      const calls = handlers({
        [`GET ${base}/logins`]: () => json(200, reply),
        [`POST ${base}/batch-credentials`]: () => json(201, batch.slice(0, 2)),
      });
      show();
      const ui = userEvent.setup();
      await screen.findByRole('heading', { name: 'Study Logins' });
      const table = await screen.findByRole('region', { name: 'Study logins' });
      const count = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling;
      expect(count('Generated')).toHaveTextContent('4');
      expect(count('Used')).toHaveTextContent('3');
      expect(count('Unused')).toHaveTextContent('1');
      const emails = () =>
        within(table)
          .queryAllByText(/@studychat\.local$/)
          .map((e) => e.textContent);
      expect(emails()).toHaveLength(4);
      expect(within(table).getByRole('row', { name: /bbbbbbbb/ })).toHaveTextContent('JoinedPID-B');

      await ui.click(screen.getByRole('button', { name: 'Unused' }));
      expect(screen.getByRole('button', { name: 'Unused' })).toHaveAttribute('aria-pressed', 'true');
      expect(emails()).toEqual(['study-dddddddd@studychat.local']);
      await ui.click(screen.getByRole('button', { name: 'Used' }));
      expect(emails()).toHaveLength(3);

      const before = calls.filter((c) => c.url === `${base}/logins`).length;
      await ui.click(screen.getByRole('button', { name: 'Generate' }));
      await screen.findByText(batch[1]?.password ?? '');
      await waitFor(() => expect(calls.filter((c) => c.url === `${base}/logins`).length).toBe(before + 1));
    });

    it('downloads the unused logins as CSV, and revokes a login after a confirmation naming it', async () => {
      const login = (email: string, status: StudyLogin['status']): StudyLogin => ({
        email,
        batch_id: 'b1',
        created_at: '2026-11-20T10:00:00.000Z',
        last_login_at: status === 'unused' ? null : '2026-11-21T10:00:00.000Z',
        prolific_pid: status === 'joined' ? 'PID-B' : null,
        status,
      });
      let reply: StudyLoginsReply = {
        total: 3,
        used: 1,
        unused: 2,
        logins: [
          login('study-bbbbbbbb@studychat.local', 'joined'),
          login('study-dddddddd@studychat.local', 'unused'),
          login('study-eeeeeeee@studychat.local', 'unused'),
        ],
      };
      const calls = handlers({
        [`GET ${base}/logins`]: () => json(200, reply),
        [`POST ${base}/logins/revoke`]: () => {
          reply = {
            ...reply,
            logins: reply.logins.map((l) => (l.status === 'joined' ? { ...l, status: 'revoked' } : l)),
          };
          return json(200, { email: 'study-bbbbbbbb@studychat.local', sessions_ended: 1 });
        },
      });
      show();
      const ui = userEvent.setup();
      const table = await screen.findByRole('region', { name: 'Study logins' });

      const downloads = captureDownloads();
      await ui.click(screen.getByRole('button', { name: 'Download unused logins (CSV)' }));
      expect(downloads.saved[0]?.name).toMatch(/^unused-logins-99999999-\d{8}-\d{4}\.csv$/);
      const text = (await downloads.saved[0]?.blob.text()) ?? '';
      expect(text.split('\n')).toEqual([
        'Username,Generated',
        'study-dddddddd@studychat.local,2026-11-20T10:00:00.000Z',
        'study-eeeeeeee@studychat.local,2026-11-20T10:00:00.000Z',
        '',
      ]);
      downloads.restore();

      await ui.click(within(table).getByRole('button', { name: 'Revoke study-bbbbbbbb@studychat.local' }));
      const dialog = await screen.findByRole('dialog', { name: 'Revoke this study login?' });
      expect(dialog).toHaveTextContent('study-bbbbbbbb@studychat.local will stop working at once');
      expect(dialog).toHaveTextContent('whoever is using it now is logged out');
      await ui.click(within(dialog).getByRole('button', { name: 'Revoke login' }));
      expect(await screen.findByRole('status')).toHaveTextContent(
        'Revoked study-bbbbbbbb@studychat.local: it can no longer log in, and 1 open session(s) were ended.',
      );
      expect(calls.find((c) => c.url === `${base}/logins/revoke`)?.body).toEqual({
        email: 'study-bbbbbbbb@studychat.local',
      });
      await waitFor(() => expect(within(table).getByRole('row', { name: /bbbbbbbb/ })).toHaveTextContent('Revoked'));
      expect(within(table).queryByRole('button', { name: 'Revoke study-bbbbbbbb@studychat.local' })).toBeNull();
    });

    it('offers no revoking to an analyst', async () => {
      handlers({
        [`GET ${base}/logins`]: () =>
          json(200, {
            total: 1,
            used: 0,
            unused: 1,
            logins: [
              {
                email: 'study-dddddddd@studychat.local',
                batch_id: 'b1',
                created_at: '2026-11-20T10:00:00.000Z',
                last_login_at: null,
                prolific_pid: null,
                status: 'unused',
              },
            ],
          }),
      });
      renderPage(<StudyLoginsPanel experimentId={ID} />, { path: '/', route: '/', as: 'analyst' });
      await screen.findByRole('region', { name: 'Study logins' });
      expect(screen.queryByRole('button', { name: /Revoke/ })).toBeNull();
    });

    it('says when no logins were generated yet', async () => {
      handlers();
      show();
      expect(await screen.findByText('No study logins generated yet.')).toBeInTheDocument();
    });
  });
});

describe('experiment status', () => {
  const inState = (state: Experiment['state']) => ({ [`GET ${base}`]: () => json(200, { ...experiment, state }) });

  it('shows the state with its meaning and a button per allowed change; pausing needs no confirmation', async () => {
    let state: Experiment['state'] = 'open';
    const calls = handlers({
      [`GET ${base}`]: () => json(200, { ...experiment, state }),
      [`PUT ${base}/state`]: (call) => {
        state = (call.body as { state: Experiment['state'] }).state;
        return json(200, { ...experiment, state });
      },
    });
    show();
    const card = (await screen.findByRole('heading', { name: 'Status' })).closest('section, div') as HTMLElement;
    expect(within(card).getByText('Open')).toBeInTheDocument();
    expect(screen.getByText('Participants can join.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pause' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back to draft' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Archive' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Delete experiment/ })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Pause' }));
    expect(await screen.findByText(/New participants are told the study is paused/)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ state: 'paused' });
    expect(screen.getByRole('button', { name: 'Open' })).toBeInTheDocument();
  });

  it('asks before closing, and sends nothing when cancelled', async () => {
    const calls = handlers({ ...inState('open'), [`PUT ${base}/state`]: () => json(200, experiment) });
    show();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Close' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close this experiment?' });
    expect(dialog).toHaveTextContent('Participants already in can finish');
    await ui.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    await ui.click(screen.getByRole('button', { name: 'Close' }));
    await ui.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Close experiment' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ state: 'closed' }));
  });

  it('asks before archiving a closed experiment, and shows a refusal in words', async () => {
    handlers({
      ...inState('closed'),
      [`PUT ${base}/state`]: () =>
        json(409, { error: 'An experiment that is closed cannot become archived.', code: 'STATE_TRANSITION_INVALID' }),
    });
    show();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Archive' }));
    const dialog = await screen.findByRole('dialog', { name: 'Archive this experiment?' });
    expect(dialog).toHaveTextContent('Its data and exports are kept');
    await ui.click(within(dialog).getByRole('button', { name: 'Archive experiment' }));
    expect(await screen.findByText('An experiment that is closed cannot become archived.')).toBeInTheDocument();
  });

  it('deletes a draft after a confirmation naming what goes', async () => {
    const calls = handlers({
      ...inState('draft'),
      [`DELETE ${base}`]: () => json(200, { id: ID, study_logins: 2 }),
      'GET /api/experiments': () => json(200, []),
    });
    show();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Delete experiment...' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this experiment?' });
    expect(dialog).toHaveTextContent('"MMR main study" will be deleted for good');
    expect(dialog).toHaveTextContent('every study login generated for it');
    await ui.click(within(dialog).getByRole('button', { name: 'Delete experiment' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === base)).toBe(true));
  });

  it('shows the state but no buttons to an analyst', async () => {
    handlers(inState('paused'));
    renderPage(<ExperimentDetailPage />, {
      path: `/admin/experiments/${ID}`,
      route: '/admin/experiments/:id',
      as: 'analyst',
    });
    expect(await screen.findByRole('heading', { name: 'Status' })).toBeInTheDocument();
    expect(screen.getAllByText('Paused').length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: 'Open' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
  });
});

describe('quotas', () => {
  it('lists the quotas with how full each is, and says when every place is taken', async () => {
    handlers({
      [`GET ${base}/quotas`]: () =>
        json(200, {
          quotas: [
            { condition: 'mmr', stratum: null, max: 150, filled: 150 },
            { condition: 'control', stratum: '3-4', max: 50, filled: 12 },
          ],
          conditions: ['mmr', 'control'],
          strata: ['1-2', '3-4', '5-6'],
          full: true,
        }),
    });
    show();
    const table = await screen.findByRole('region', { name: 'Quotas' });
    expect(within(table).getByRole('row', { name: /mmr/ })).toHaveTextContent('mmrEvery stratum150Full150');
    expect(within(table).getByRole('row', { name: /control/ })).toHaveTextContent('control3-41250');
    expect(
      screen.getByText('Every place is taken: new participants are told the study is closed.'),
    ).toBeInTheDocument();
  });

  it('edits them: adds one per stratum, checks the number, saves, and shows the server refusal', async () => {
    let saved: unknown = null;
    const calls = handlers({
      [`PUT ${base}/quotas`]: (call) => {
        saved = call.body;
        const quotas = (call.body as { quotas: { condition: string; stratum: string | null; max: number }[] }).quotas;
        if (quotas.some((q) => q.max > 1000)) {
          return json(400, { error: 'quotas.0.max: too many', code: 'VALIDATION_FAILED' });
        }
        return json(200, {
          quotas: quotas.map((q) => ({ ...q, filled: 0 })),
          conditions: ['mmr', 'control'],
          strata: ['1-2', '3-4', '5-6'],
          full: false,
        });
      },
    });
    show();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Set quotas' }));
    await ui.click(screen.getByRole('button', { name: 'Add quota' }));
    const quota = screen.getByRole('group', { name: 'Quota 1' });
    await ui.selectOptions(within(quota).getByLabelText('Condition'), 'control');
    await ui.selectOptions(within(quota).getByLabelText('Stratum'), '5-6');
    await ui.click(screen.getByRole('button', { name: 'Save quotas' }));
    expect(await screen.findByText(/Quota 1: the most participants must be a whole number/)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    await ui.type(within(quota).getByLabelText('Most participants'), '5000');
    await ui.click(screen.getByRole('button', { name: 'Save quotas' }));
    expect(await screen.findByText('quotas.0.max: too many')).toBeInTheDocument();

    await ui.clear(within(quota).getByLabelText('Most participants'));
    await ui.type(within(quota).getByLabelText('Most participants'), '40');
    await ui.click(screen.getByRole('button', { name: 'Save quotas' }));
    expect(await screen.findByText('Quotas saved.')).toBeInTheDocument();
    expect(saved).toEqual({ quotas: [{ condition: 'control', stratum: '5-6', max: 40 }] });
    const table = screen.getByRole('region', { name: 'Quotas' });
    expect(within(table).getByRole('row', { name: /control/ })).toHaveTextContent('control5-6040');
  });
});

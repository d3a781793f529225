import type { AdminMessage, AdminThread, AdminUser, Assignment, SurveyResponse } from '@studychat/contracts/web';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderPage } from '../test-utils';
import { UserDetailPage } from './UserDetailPage';

const USER_ID = 'cccccccc-3333-4333-8333-333333333333';
const EXP_ID = 'eeeeeeee-5555-4555-8555-555555555555';
const THREAD_ID = 'dddddddd-4444-4444-8444-444444444444';
const base = `/api/admin/users/${USER_ID}`;

const user: AdminUser = {
  id: USER_ID,
  email: 'p7@study.example',
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T11:00:00.000Z',
  last_login_at: null,
  is_admin: false,
  is_test: false,
  metadata: { batch: 3 },
};

function assignment(pid: string | null, over: Partial<Assignment> = {}): Assignment {
  return {
    id: crypto.randomUUID(),
    user_id: USER_ID,
    experiment_id: EXP_ID,
    prolific_pid: pid,
    study_id: null,
    session_id: null,
    assigned_condition: null,
    stratum: null,
    condition_assigned_at: null,
    consent_given: false,
    consent_timestamp: null,
    created_at: '2026-11-01T10:05:00.000Z',
    intervention_completed_timestamp: null,
    completion_pathway: null,
    completed_at: null,
    ...over,
  };
}

const thread: AdminThread = {
  id: THREAD_ID,
  experiment_id: EXP_ID,
  title: null,
  message_count: 2,
  last_message_at: '2026-11-01T10:20:00.000Z',
};

function message(over: Partial<AdminMessage>): AdminMessage {
  return {
    id: crypto.randomUUID(),
    role: 'assistant',
    content: '',
    created_at: '2026-11-01T10:10:00.000Z',
    status: 'complete',
    error_message: null,
    thinking_log: null,
    model_used: null,
    tokens_used: null,
    input_tokens: null,
    output_tokens: null,
    uncached_input_tokens: null,
    cache_write_tokens: null,
    cache_read_tokens: null,
    cost_usd: null,
    queue_ms: null,
    fallback_from: null,
    first_token_ms: null,
    total_ms: null,
    stop_reason: null,
    ...over,
  };
}

const survey: SurveyResponse = {
  id: 'ffffffff-6666-4666-8666-666666666666',
  experiment_id: EXP_ID,
  survey_type: 'baseline',
  responses: { vaccination_intention: '5' },
  created_at: '2026-11-01T10:07:00.000Z',
};

afterEach(() => vi.unstubAllGlobals());

const show = () => renderPage(<UserDetailPage />, { path: `/admin/user/${USER_ID}`, route: '/admin/user/:id' });

describe('UserDetailPage', () => {
  it('shows the profile, Prolific ids, assignments and survey responses', async () => {
    mockFetch({
      [`GET ${base}`]: () => json(200, user),
      [`GET ${base}/assignments`]: () =>
        json(200, [
          assignment('PID-1', {
            assigned_condition: 'mmr',
            consent_given: true,
            consent_timestamp: '2026-11-01T10:06:00.000Z',
            intervention_completed_timestamp: '2026-11-01T10:30:00.000Z',
            completion_pathway: 'complete',
            completed_at: '2026-11-01T10:30:00.000Z',
          }),
          assignment('PID-1'),
          // Screened out: completed_at is set, but the intervention was not completed.
          assignment('PID-2', { completion_pathway: 'confirm', completed_at: '2026-11-01T10:08:00.000Z' }),
        ]),
      [`GET ${base}/survey-responses`]: () => json(200, [survey]),
      [`GET ${base}/threads`]: () => json(200, []),
    });
    show();
    expect(await screen.findByText('PID-1, PID-2')).toBeInTheDocument();
    expect(screen.getByRole('row', { name: /Last Login/ })).toHaveTextContent('Never');
    expect(screen.getByRole('row', { name: /Metadata/ })).toHaveTextContent('"batch": 3');
    expect(screen.queryByTitle(/A preview's login/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Back to Users/ })).toHaveAttribute('href', '/admin');
    expect(await screen.findByText('This user has no chat threads.')).toBeInTheDocument();

    const rows = screen.getAllByRole('row').filter((r) => within(r).queryByRole('link', { name: 'eeeeeeee...' }));
    expect(rows).toHaveLength(3);
    const [done, open, exit] = rows;
    expect(done).toHaveTextContent('mmr');
    expect(done).toHaveTextContent(/Yes \(.*\)complete$/);
    expect(open).toHaveTextContent('Not Assigned');
    expect(open).toHaveTextContent(/No-$/);
    expect(exit).toHaveTextContent(/No.*No.*confirm$/);
    expect(screen.getByRole('columnheader', { name: 'Pathway' })).toBeInTheDocument();
    expect(within(rows[0] ?? document.body).getByRole('link', { name: 'eeeeeeee...' })).toHaveAttribute(
      'href',
      `/admin/experiments/${EXP_ID}`,
    );

    expect(screen.getByText('baseline')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByText('View Response Data'));
    expect(screen.getByText(/"vaccination_intention": "5"/)).toBeVisible();
  });

  it('lists threads, shows messages of the chosen one, and toggles the thinking log', async () => {
    mockFetch({
      [`GET ${base}`]: () => json(200, user),
      [`GET ${base}/assignments`]: () => json(200, []),
      [`GET ${base}/survey-responses`]: () => json(200, []),
      [`GET ${base}/threads`]: () => json(200, [thread]),
      [`GET ${base}/threads/${THREAD_ID}/messages`]: () =>
        json(200, [
          message({ role: 'user', content: 'Is MMR safe?' }),
          message({
            content: 'Yes, it is very safe.',
            thinking_log: JSON.stringify([{ type: 'thinking', thinking: 'Reassure.' }, { type: 'redacted_thinking' }]),
            model_used: 'claude-test',
            tokens_used: 321,
            uncached_input_tokens: 21,
            cache_write_tokens: 100,
            cache_read_tokens: 150,
            cost_usd: 0.0042,
          }),
          message({ content: 'Broken log reply', thinking_log: 'not json' }),
        ]),
    });
    show();
    const ui = userEvent.setup();
    expect(await screen.findByText('Select a thread to view messages')).toBeInTheDocument();
    expect(screen.getByText('No assignments found.')).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: /Untitled Thread/ }));
    expect(await screen.findByText('Is MMR safe?')).toBeInTheDocument();
    expect(screen.getByText('User')).toBeInTheDocument();
    expect(
      screen.getByText(
        /Model: claude-test · Tokens: 321 · Input: 21 uncached, 100 cache write, 150 cache read · Cost: \$0\.0042 USD/,
      ),
    ).toBeInTheDocument();

    const toggles = screen.getAllByRole('button', { name: '[Show Thinking]' });
    // The user message has no toggle; both AI messages with a log have one.
    expect(toggles).toHaveLength(2);
    await ui.click(toggles[0] ?? document.body);
    expect(screen.getByText('[THINKING]: Reassure.')).toBeInTheDocument();
    expect(screen.getByText('[REDACTED THINKING]')).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: '[Hide Thinking]' }));
    expect(screen.queryByText('[THINKING]: Reassure.')).not.toBeInTheDocument();
    await ui.click(screen.getAllByRole('button', { name: '[Show Thinking]' })[1] ?? document.body);
    expect(screen.getByText('Failed to parse log')).toBeInTheDocument();
  });

  it("marks a preview's login as a test", async () => {
    mockFetch({
      [`GET ${base}`]: () => json(200, { ...user, email: 'preview-x@preview.invalid', is_test: true }),
      [`GET ${base}/assignments`]: () => json(200, [assignment('PREVIEW-0A1B2C3D')]),
      [`GET ${base}/survey-responses`]: () => json(200, []),
      [`GET ${base}/threads`]: () => json(200, []),
    });
    show();
    expect(await screen.findByText('PREVIEW-0A1B2C3D')).toBeInTheDocument();
    expect(screen.getByRole('row', { name: /Email/ })).toHaveTextContent(/preview-x@preview\.invalid\s*test/);
    expect(screen.getByTitle(/A preview's login, made by an admin/)).toBeInTheDocument();
  });

  it("shows 'No messages in this thread' for an empty thread", async () => {
    mockFetch({
      [`GET ${base}`]: () => json(200, user),
      [`GET ${base}/assignments`]: () => json(200, []),
      [`GET ${base}/survey-responses`]: () => json(200, []),
      [`GET ${base}/threads`]: () => json(200, [{ ...thread, title: 'My chat', message_count: 0 }]),
      [`GET ${base}/threads/${THREAD_ID}/messages`]: () => json(200, []),
    });
    show();
    await userEvent.setup().click(await screen.findByRole('button', { name: /My chat/ }));
    expect(await screen.findByText('No messages in this thread')).toBeInTheDocument();
  });

  it("shows the server's error text for a missing user", async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch({
      [`GET ${base}`]: () => json(404, { error: 'User not found', code: 'NOT_FOUND' }),
    });
    show();
    expect(await screen.findByRole('alert')).toHaveTextContent('User not found');
    error.mockRestore();
  });

  it("says 'User not found' for a malformed id instead of the validation message", async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch({
      'GET /api/admin/users/not-an-id': () => json(400, { error: 'id: Invalid UUID', code: 'VALIDATION_FAILED' }),
      'GET /api/admin/users/not-an-id/assignments': () =>
        json(400, { error: 'id: Invalid UUID', code: 'VALIDATION_FAILED' }),
      'GET /api/admin/users/not-an-id/survey-responses': () =>
        json(400, { error: 'id: Invalid UUID', code: 'VALIDATION_FAILED' }),
      'GET /api/admin/users/not-an-id/threads': () =>
        json(400, { error: 'id: Invalid UUID', code: 'VALIDATION_FAILED' }),
    });
    renderPage(<UserDetailPage />, { path: '/admin/user/not-an-id', route: '/admin/user/:id' });
    expect(await screen.findByRole('alert')).toHaveTextContent('User not found');
    expect(screen.queryByText(/Invalid UUID/)).not.toBeInTheDocument();
    error.mockRestore();
  });

  it('falls back to the spec texts when the server sends no error field', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch({
      [`GET ${base}`]: () => json(200, user),
      [`GET ${base}/assignments`]: () => new Response('oops', { status: 500 }),
      [`GET ${base}/survey-responses`]: () => new Response('oops', { status: 500 }),
      [`GET ${base}/threads`]: () => new Response('oops', { status: 500 }),
    });
    show();
    expect(await screen.findByText('Error: Failed to load assignments.')).toBeInTheDocument();
    expect(await screen.findByText('Error: Failed to load survey responses.')).toBeInTheDocument();
    // A thread failure is only logged.
    await vi.waitFor(() => expect(error).toHaveBeenCalledWith('Failed to load chat threads:', expect.anything()));
    expect(screen.queryByText('This user has no chat threads.')).not.toBeInTheDocument();
    error.mockRestore();
  });

  it('shows the generic load error when the server cannot say why', async () => {
    mockFetch({ [`GET ${base}`]: () => new Response('', { status: 500 }) });
    show();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to load user. Please check your authorization or if the user exists.',
    );
  });
});

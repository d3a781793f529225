import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  EXPERIMENT_CLOSED_TEXT,
  EXPERIMENT_PAUSED_TEXT,
  LOGIN_REVOKED_TEXT,
  NOT_ADMITTING_TEXT,
  NOT_IN_EARLIER_WAVE_TEXT,
} from '@studychat/contracts/web';
import { assignment, EXP_ID, loginAs, mockApi, renderAt, USER_ID } from '../test-support';
import { ProlificPage } from './ProlificPage';

afterEach(() => vi.unstubAllGlobals());

const LANDING = `/prolific?PROLIFIC_PID=PID-7&EXPERIMENT_ID=${EXP_ID}&STUDY_ID=S-1&SESSION_ID=X-1`;
const ADMISSION = `GET /api/participants/admission/${EXP_ID}`;
const ADMITTING = { [ADMISSION]: { status: 200, body: { admitting: true, message: null } } };
const ASSIGNMENT = `GET /api/participants/${USER_ID}/${EXP_ID}`;
const CREDENTIALS_GUIDANCE = /check that you are using the study email and password/;
const LINK_JOIN = 'POST /api/prolific/join';

async function logIn() {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Study email'), 'p123@study.test');
  await user.type(screen.getByLabelText('Password'), 'secret-password');
  await user.click(screen.getByRole('button', { name: 'Log In' }));
}

describe('ProlificPage', () => {
  it('names missing parameters and refuses to log in', async () => {
    const api = mockApi({});
    renderAt(<ProlificPage />, '/prolific?EXPERIMENT_ID=x', '/prolific');
    expect(
      screen.getByText(/Missing required URL parameters: PROLIFIC_PID\. Please use the link provided by Prolific\./),
    ).toBeInTheDocument();
    await logIn();
    expect(
      await screen.findByText('Cannot login without required Prolific and Experiment IDs from the URL.'),
    ).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
    expect(sessionStorage.getItem('EXPERIMENT_ID')).toBeNull();
  });

  it('keeps the ids, shows the study-login hints, and on login creates the assignment and goes to consent', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const api = mockApi({
      ...ADMITTING,
      'POST /api/auth/login': { status: 200, body: { token: 'tok', user: { id: USER_ID, email: 'p123@study.test' } } },
      'POST /api/participants': { status: 409, body: { error: 'exists', code: 'CONFLICT' } },
      [`GET /api/participants/${USER_ID}/${EXP_ID}`]: { status: 200, body: assignment() },
      'PUT /api/participants/prolific-id': { status: 500, body: { error: 'boom', code: 'INTERNAL' } },
    });
    renderAt(<ProlificPage />, LANDING, '/prolific');
    expect(screen.getByText(/looks like a generated research address/)).toBeInTheDocument();
    expect(screen.getByText(/Do not use your personal email or your Prolific login/)).toBeInTheDocument();
    await waitFor(() => expect(sessionStorage.getItem('PROLIFIC_PID')).toBe('PID-7'));
    expect(sessionStorage.getItem('EXPERIMENT_ID')).toBe(EXP_ID);
    expect(sessionStorage.getItem('STUDY_ID')).toBe('S-1');
    expect(sessionStorage.getItem('SESSION_ID')).toBe('X-1');
    await logIn();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/consent'));
    expect(localStorage.getItem('token')).toBe('tok');
    expect(api.calls.find((c) => c.key === 'POST /api/participants')?.body).toEqual({
      user_id: USER_ID,
      experiment_id: EXP_ID,
      prolific_pid: 'PID-7',
      study_id: 'S-1',
      session_id: 'X-1',
    });
    expect(api.keys()).toContain(`GET /api/participants/${USER_ID}/${EXP_ID}`);
    expect(api.calls.find((c) => c.key === 'PUT /api/participants/prolific-id')?.body).toEqual({
      experimentId: EXP_ID,
      prolificId: 'PID-7',
    });
    expect(warn).toHaveBeenCalled();
  });

  it('refuses a Prolific id another study login already uses here, with its message, and stays logged out', async () => {
    const taken =
      'This Prolific ID is already taking part in this study with another study login. Please log in with the study login you used first, or contact the research team.';
    const api = mockApi({
      'POST /api/auth/login': { status: 200, body: { token: 'tok', user: { id: USER_ID, email: 'p123@study.test' } } },
      'POST /api/participants': { status: 409, body: { error: taken, code: 'PROLIFIC_ID_TAKEN' } },
    });
    renderAt(<ProlificPage />, LANDING, '/prolific');
    await logIn();
    expect(await screen.findByRole('alert')).toHaveTextContent(taken);
    // The password was right: no advice to check it (issue 34), but what to do instead.
    expect(screen.getByRole('alert')).not.toHaveTextContent(CREDENTIALS_GUIDANCE);
    expect(screen.getByRole('alert')).toHaveTextContent(/were accepted.*Log in with that one/);
    // Not taken for "already joined": the existing assignment is not fetched.
    expect(api.keys()).not.toContain(`GET /api/participants/${USER_ID}/${EXP_ID}`);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('offers no login when the study admits no new participants, and says so', async () => {
    const api = mockApi({ [ADMISSION]: { status: 200, body: { admitting: false, message: NOT_ADMITTING_TEXT } } });
    renderAt(<ProlificPage />, LANDING, '/prolific');
    expect(await screen.findByText(NOT_ADMITTING_TEXT)).toBeInTheDocument();
    expect(screen.getByText('This study is closed to new participants.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Study email')).toBeNull();
    expect(screen.queryByText(/Please log in with the study login/)).toBeNull();
    expect(api.keys().sort()).toEqual([ADMISSION, LINK_JOIN].sort());
  });

  it('shows the refusal of a join that came too late (403 NOT_ADMITTING) in place of the login, logged out', async () => {
    mockApi({
      ...ADMITTING,
      'POST /api/auth/login': { status: 200, body: { token: 'tok', user: { id: USER_ID, email: 'p123@study.test' } } },
      'POST /api/participants': { status: 403, body: { error: NOT_ADMITTING_TEXT, code: 'NOT_ADMITTING' } },
    });
    renderAt(<ProlificPage />, LANDING, '/prolific');
    await logIn();
    expect(await screen.findByText(NOT_ADMITTING_TEXT)).toBeInTheDocument();
    expect(screen.queryByLabelText('Study email')).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it.each([
    ['paused', EXPERIMENT_PAUSED_TEXT, 'This study is paused.'],
    ['closed', EXPERIMENT_CLOSED_TEXT, 'This study is closed to new participants.'],
  ] as const)('offers no login while the experiment is %s, with its own page', async (reason, text, title) => {
    const api = mockApi({ [ADMISSION]: { status: 200, body: { admitting: false, message: text, reason } } });
    renderAt(<ProlificPage />, LANDING, '/prolific');
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(screen.getByText(title)).toBeInTheDocument();
    expect(screen.queryByLabelText('Study email')).toBeNull();
    expect(api.keys().sort()).toEqual([ADMISSION, LINK_JOIN].sort());
  });

  it.each([
    ['EXPERIMENT_PAUSED', EXPERIMENT_PAUSED_TEXT, 'This study is paused.'],
    ['EXPERIMENT_CLOSED', EXPERIMENT_CLOSED_TEXT, 'This study is closed to new participants.'],
    ['NOT_IN_EARLIER_WAVE', NOT_IN_EARLIER_WAVE_TEXT, 'This follow-up study is for earlier participants.'],
  ] as const)('shows a join refused with 403 %s as its page, logged out', async (code, text, title) => {
    mockApi({
      ...ADMITTING,
      'POST /api/auth/login': { status: 200, body: { token: 'tok', user: { id: USER_ID, email: 'p123@study.test' } } },
      'POST /api/participants': { status: 403, body: { error: text, code } },
    });
    renderAt(<ProlificPage />, LANDING, '/prolific');
    await logIn();
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(screen.getByText(title)).toBeInTheDocument();
    expect(screen.queryByLabelText('Study email')).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('says a revoked study login was withdrawn, without telling the participant to check the password', async () => {
    mockApi({
      ...ADMITTING,
      'POST /api/auth/login': { status: 403, body: { error: LOGIN_REVOKED_TEXT, code: 'LOGIN_REVOKED' } },
    });
    renderAt(<ProlificPage />, LANDING, '/prolific');
    await logIn();
    expect(await screen.findByText(LOGIN_REVOKED_TEXT)).toBeInTheDocument();
    expect(screen.getByText('This study login has been withdrawn.')).toBeInTheDocument();
    expect(screen.queryByText(/study email and password/)).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('shows a login failure with guidance to use the study login', async () => {
    mockApi({
      'POST /api/auth/login': {
        status: 401,
        body: { error: 'Invalid email or password', code: 'INVALID_CREDENTIALS' },
      },
    });
    renderAt(<ProlificPage />, LANDING, '/prolific');
    await logIn();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Invalid email or password');
    expect(alert).toHaveTextContent(/study email and password/);
  });

  it('asks a logged-in visitor to log out first; Log Out returns to the same URL logged out', async () => {
    loginAs();
    const api = mockApi({
      ...ADMITTING,
      // Someone else: this login has not joined this experiment.
      [ASSIGNMENT]: { status: 404, body: { error: 'Not found', code: 'NOT_FOUND' } },
      'POST /api/auth/logout': { status: 200, body: { ok: true } },
    });
    renderAt(<ProlificPage />, LANDING, '/prolific');
    expect(await screen.findByText(/You are already logged in/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Study email')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Continue the study' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Log Out' }));
    expect(await screen.findByLabelText('Study email')).toBeInTheDocument();
    expect(api.keys().filter((key) => key !== ADMISSION && key !== ASSIGNMENT)).toEqual([
      'POST /api/auth/logout',
      LINK_JOIN,
    ]);
    expect(localStorage.getItem('token')).toBeNull();
    await waitFor(() => expect(sessionStorage.getItem('EXPERIMENT_ID')).toBe(EXP_ID));
  });

  it('offers the same participant, still logged in, to continue the study where they were (issue 34)', async () => {
    loginAs();
    const api = mockApi({ ...ADMITTING, [ASSIGNMENT]: { status: 200, body: assignment({ prolific_pid: 'PID-7' }) } });
    renderAt(<ProlificPage />, LANDING, '/prolific');
    expect(await screen.findByText('You are already logged in to this study.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Log Out' })).toBeNull();
    expect(screen.queryByText(/Please log out first/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Continue the study' }));
    // The study guard takes them on to the step the server has them at.
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/consent'));
    expect(sessionStorage.getItem('PROLIFIC_PID')).toBe('PID-7');
    expect(sessionStorage.getItem('EXPERIMENT_ID')).toBe(EXP_ID);
    expect(sessionStorage.getItem('STUDY_ID')).toBe('S-1');
    expect(localStorage.getItem('token')).not.toBeNull();
    expect(api.keys()).not.toContain('POST /api/auth/logout');
  });

  it('asks a login of this experiment with another Prolific id to log out first', async () => {
    loginAs();
    mockApi({ ...ADMITTING, [ASSIGNMENT]: { status: 200, body: assignment({ prolific_pid: 'PID-OTHER' }) } });
    renderAt(<ProlificPage />, LANDING, '/prolific');
    expect(await screen.findByText(/Please log out first/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log Out' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue the study' })).toBeNull();
  });

  it('asks a logged-in admin to log out first without looking for an assignment', async () => {
    loginAs({ isAdmin: true });
    const api = mockApi({ ...ADMITTING });
    renderAt(<ProlificPage />, LANDING, '/prolific');
    expect(await screen.findByText(/Please log out first/)).toBeInTheDocument();
    expect(api.keys()).not.toContain(ASSIGNMENT);
  });

  it.each([
    [
      'PROLIFIC_ID_WITHDRAWN',
      403,
      'This Prolific ID has withdrawn from this study and its data was deleted, so it cannot take part again. Please contact the research team if you think this is a mistake.',
      /cannot take part in this study again/,
    ],
    [
      'PROLIFIC_ID_MISMATCH',
      403,
      'This study login is already linked to a different Prolific ID. Please use the study login provided to you for this Prolific account.',
      /belongs to another Prolific account/,
    ],
    [
      'FORBIDDEN',
      403,
      'This study login was created for a different study. Please use the login details provided with this study.',
      /is for another study/,
    ],
  ])(
    'a join refused with %s says what is wrong, not to check the password (issue 34)',
    async (code, status, message, guidance) => {
      mockApi({
        ...ADMITTING,
        'POST /api/auth/login': {
          status: 200,
          body: { token: 'tok', user: { id: USER_ID, email: 'p123@study.test' } },
        },
        'POST /api/participants': { status, body: { error: message, code } },
      });
      renderAt(<ProlificPage />, LANDING, '/prolific');
      await logIn();
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent(message);
      expect(alert).toHaveTextContent(guidance);
      expect(alert).toHaveTextContent(/were accepted/);
      expect(alert).not.toHaveTextContent(CREDENTIALS_GUIDANCE);
      expect(localStorage.getItem('token')).toBeNull();
    },
  );

  it('a wrong password after a refusal gets the password guidance again', async () => {
    mockApi({
      ...ADMITTING,
      'POST /api/auth/login': [
        { status: 200, body: { token: 'tok', user: { id: USER_ID, email: 'p123@study.test' } } },
        { status: 401, body: { error: 'Invalid email or password', code: 'INVALID_CREDENTIALS' } },
      ],
      'POST /api/participants': { status: 403, body: { error: 'Withdrawn.', code: 'PROLIFIC_ID_WITHDRAWN' } },
    });
    renderAt(<ProlificPage />, LANDING, '/prolific');
    await logIn();
    expect(await screen.findByRole('alert')).toHaveTextContent(/were accepted/);
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Invalid email or password'));
    expect(screen.getByRole('alert')).toHaveTextContent(CREDENTIALS_GUIDANCE);
    expect(screen.getByRole('alert')).not.toHaveTextContent(/were accepted/);
  });

  it('lets the same participant continue even when the study admits no new participants', async () => {
    loginAs();
    mockApi({
      [ADMISSION]: { status: 200, body: { admitting: false, message: NOT_ADMITTING_TEXT } },
      [ASSIGNMENT]: { status: 200, body: assignment({ prolific_pid: 'PID-7' }) },
    });
    renderAt(<ProlificPage />, LANDING, '/prolific');
    expect(await screen.findByRole('button', { name: 'Continue the study' })).toBeInTheDocument();
    expect(screen.queryByText('This study is closed to new participants.')).toBeNull();
    expect(screen.queryByText(/Please log in with the study login/)).toBeNull();
  });

  it('offers the login form, without leaving the page, when the stored login no longer works', async () => {
    loginAs();
    mockApi({
      ...ADMITTING,
      [ASSIGNMENT]: { status: 401, body: { error: 'Your session has expired', code: 'UNAUTHENTICATED' } },
    });
    renderAt(<ProlificPage />, LANDING, '/prolific');
    expect(await screen.findByLabelText('Study email')).toBeInTheDocument();
    expect(screen.queryByTestId('location')).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
    await waitFor(() => expect(sessionStorage.getItem('PROLIFIC_PID')).toBe('PID-7'));
  });

  describe('joining by the study link alone (docs/decisions/0086)', () => {
    const JOINED = {
      token: 'link-token',
      user: { id: USER_ID, email: 'prolific-1@prolific-link.invalid' },
      experiment_id: EXP_ID,
      prolific_pid: 'PID-7',
      resumed: false,
      flow: false,
    };

    it('starts the study from the link with no login when the experiment allows it', async () => {
      const api = mockApi({ ...ADMITTING, [LINK_JOIN]: { status: 200, body: JOINED } });
      renderAt(<ProlificPage />, LANDING, '/prolific');
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/consent'));
      expect(localStorage.getItem('token')).toBe('link-token');
      expect(api.calls.find((c) => c.key === LINK_JOIN)?.body).toEqual({
        experimentId: EXP_ID,
        prolificPid: 'PID-7',
        studyId: 'S-1',
        sessionId: 'X-1',
      });
      expect(sessionStorage.getItem('SESSION_ID')).toBe('X-1');
      expect(api.keys()).not.toContain('POST /api/auth/login');
    });

    it('goes to the flow of a study written as one', async () => {
      mockApi({ ...ADMITTING, [LINK_JOIN]: { status: 200, body: { ...JOINED, resumed: true, flow: true } } });
      renderAt(<ProlificPage />, LANDING, '/prolific');
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/flow/${EXP_ID}`));
    });

    it('shows a forged or different SESSION_ID as a refusal page, without the login', async () => {
      const message = 'This Prolific ID has already started this study in another Prolific session.';
      mockApi({ ...ADMITTING, [LINK_JOIN]: { status: 403, body: { error: message, code: 'SESSION_MISMATCH' } } });
      renderAt(<ProlificPage />, LANDING, '/prolific');
      expect(await screen.findByText(message)).toBeInTheDocument();
      expect(screen.getByText('This link cannot continue the study.')).toBeInTheDocument();
      expect(screen.queryByLabelText('Study email')).toBeNull();
      expect(localStorage.getItem('token')).toBeNull();
    });

    it('keeps the login form when the experiment asks for study logins', async () => {
      const api = mockApi({
        ...ADMITTING,
        [LINK_JOIN]: { status: 403, body: { error: 'Log in.', code: 'LINK_JOIN_OFF' } },
      });
      renderAt(<ProlificPage />, LANDING, '/prolific');
      await waitFor(() => expect(api.keys()).toContain(LINK_JOIN));
      expect(screen.getByLabelText('Study email')).toBeInTheDocument();
      expect(screen.queryByRole('alert')).toBeNull();
    });

    it('does not try the link without a SESSION_ID', async () => {
      const api = mockApi({ ...ADMITTING });
      renderAt(<ProlificPage />, `/prolific?PROLIFIC_PID=PID-7&EXPERIMENT_ID=${EXP_ID}&STUDY_ID=S-1`, '/prolific');
      await waitFor(() => expect(api.keys()).toContain(ADMISSION));
      expect(api.keys()).not.toContain(LINK_JOIN);
      expect(screen.getByLabelText('Study email')).toBeInTheDocument();
    });
  });
});

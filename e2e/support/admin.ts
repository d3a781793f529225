import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { Assignment, GeneratedCredential, InitiateReply, LoginResult } from '@studychat/contracts/web';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../playwright.config';
import { passServerTime } from './clock';

/** Logs the admin in through the login page and lands on /app. */
export async function loginAsAdmin(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(ADMIN_EMAIL);
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/app$/);
}

export interface CompletedParticipant {
  userId: string;
  prolificPid: string;
  condition: string;
  messages: string[];
}

/** The participant's messages: three rounds with enough characters to reach the chat target. */
export const PARTICIPANT_MESSAGES = [
  'Hello, I have heard that the MMR vaccine might cause autism. Is that true?',
  'What side effects should I expect after the shot, and how long do they usually last?',
  'Thank you. Is it better to wait until my child is older before getting the second dose?',
];

/**
 * Takes one study login through the whole complete pathway over the API (faster than the pages,
 * which have their own tests): assignment, consent, surveys, condition, the four sections (the server's
 * clock moved past each minimum), chat, post survey and completion.
 */
export async function completeParticipantViaApi(
  request: APIRequestContext,
  experimentId: string,
  credential: GeneratedCredential,
  baseline = 4,
  post = 6,
): Promise<CompletedParticipant> {
  const login = await request.post('/api/auth/login', {
    data: { email: credential.email, password: credential.password },
  });
  expect(login.ok(), await login.text()).toBe(true);
  const { token, user } = (await login.json()) as LoginResult;
  const headers = { authorization: `Bearer ${token}` };

  async function call<T>(method: 'GET' | 'POST' | 'PUT', url: string, data?: unknown): Promise<T> {
    const res = await request.fetch(url, { method, headers, data });
    expect(res.ok(), `${method} ${url}: ${res.status()} ${await res.text()}`).toBe(true);
    return (await res.json()) as T;
  }
  /** Reads a chat event stream to its end and checks it finished cleanly. */
  async function stream(method: 'GET' | 'POST', url: string, data?: unknown): Promise<void> {
    const res = await request.fetch(url, { method, headers, data });
    const text = await res.text();
    expect(res.ok(), `${method} ${url}: ${res.status()} ${text}`).toBe(true);
    expect(text).toContain('data: [DONE]');
    expect(text).not.toContain('"error"');
  }

  const prolificPid = `PIDADMIN${Date.now().toString(36)}`.toUpperCase();
  await call<Assignment>('POST', '/api/participants', {
    user_id: user.id,
    experiment_id: experimentId,
    prolific_pid: prolificPid,
  });
  await call('POST', '/api/participants/consent', { experimentId });
  const survey = (survey_type: string, responses: object) =>
    call('POST', '/api/surveys', {
      user_id: user.id,
      experiment_id: experimentId,
      prolific_pid: prolificPid,
      survey_type,
      responses,
    });
  await survey('entry', { choice: 'questions' });
  await survey('baseline', { vaccination_intention: String(baseline) });
  await survey('pre', { age: '35-44', sex: 'female', political_leaning: 'moderate' });
  const assigned = await call<Assignment>('POST', '/api/participants/assign-condition', { experimentId });
  const condition = assigned.assigned_condition;
  if (!condition) throw new Error('no condition assigned');
  for (let sectionIndex = 0; sectionIndex < 4; sectionIndex++) {
    await call('POST', '/api/participants/sections/open', { experimentId, sectionIndex });
    await passServerTime(request, 41_000);
    await call('POST', '/api/participants/sections/finish', {
      experimentId,
      sectionIndex,
      visibleSeconds: 41,
      hiddenSeconds: 0,
    });
  }
  const { threadId } = await call<InitiateReply>('POST', '/api/chat/initiate', { experimentId });
  await stream('GET', `/api/chat/threads/${threadId}/initial-message`);
  for (const message of PARTICIPANT_MESSAGES) {
    await stream('POST', `/api/chat/threads/${threadId}/messages`, { message });
  }
  await survey('post', { post_intent: post });
  await call('POST', '/api/participants/completion', { experimentId, pathway: 'complete' });
  return { userId: user.id, prolificPid, condition, messages: PARTICIPANT_MESSAGES };
}

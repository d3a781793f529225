import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { passTime } from './clock';
import { choosePoint, consentAndChoose, landAndLogin, type ParticipantSetup } from './participant';

/** Longest minimum time of any section (spec section 9), plus a second. */
const SECTION_MS = 41_000;

/**
 * From the Prolific link to the chat page through the real pages: consent, entry 'questions',
 * baseline, pre-survey, static intro and the four timed sections (the page's and the server's clocks moved
 * past each minimum, each section scrolled to the end). Call `page.clock.install()` first.
 */
export async function reachChat(
  page: Page,
  request: APIRequestContext,
  setup: ParticipantSetup,
  baseline = 3,
): Promise<void> {
  await reachSections(page, setup, baseline);
  await readSections(page, request);
  await expect(page).toHaveURL(new RegExp(`/experiment/${setup.experimentId}/chat$`));
}

/** From the Prolific link to the first static section through the real pages (the pre-survey's baseline 3). */
export async function reachSections(page: Page, setup: ParticipantSetup, baseline = 3): Promise<void> {
  await landAndLogin(page, setup);
  await consentAndChoose(page, 'questions');
  await expect(page).toHaveURL(/\/baseline-intention$/);
  await choosePoint(page, baseline);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/pre-survey$/);
  await page.getByText('35-44', { exact: true }).click();
  await page.getByText('Male', { exact: true }).click();
  await page.getByText('Liberal', { exact: true }).click();
  await page.getByRole('button', { name: 'Submit Survey' }).click();
  await expect(page.getByText('Thank you! Redirecting...')).toBeVisible();
  await page.clock.runFor(1500);
  await expect(page).toHaveURL(new RegExp(`/experiment/${setup.experimentId}/static-intro$`));
  await page.getByRole('button', { name: 'Begin' }).click();
  await expect(page).toHaveURL(new RegExp(`/experiment/${setup.experimentId}/static$`));
}

/** Waits until the server has opened the section on screen and its countdown runs. */
export async function sectionOpened(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 }).locator('xpath=..')).toHaveAttribute('aria-busy', 'false');
}

/** From the current section to the last: each read past its minimum, scrolled to the end and finished. */
export async function readSections(page: Page, request: APIRequestContext, from = 0): Promise<void> {
  for (let index = from; index < 4; index++) {
    await expect(page.getByText(`Section ${index + 1} of 4`)).toBeVisible();
    await sectionOpened(page);
    await passTime(page, request, SECTION_MS);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const button = page.getByRole('button', { name: index === 3 ? 'Complete' : 'Next Section' });
    await expect(button).toBeEnabled();
    await button.click();
  }
}

export const chatInput = (page: Page) => page.getByRole('textbox', { name: 'Your message to the assistant' });
export const chatLog = (page: Page) => page.getByRole('log');

/** Waits until no reply is streaming (the log is busy while one is). */
export async function replyFinished(page: Page): Promise<void> {
  await expect(chatLog(page)).toHaveAttribute('aria-busy', 'false');
}

/** Sends one message and waits for its reply to finish (the rounds counter moves only then). */
export async function sendRound(page: Page, text: string, round: number): Promise<void> {
  await replyFinished(page);
  await chatInput(page).fill(text);
  await chatInput(page).press('Enter');
  await expect(page.getByText(`Rounds: ${Math.min(round, 3)}/3`)).toBeVisible();
  await replyFinished(page);
}

/** Three rounds that complete the chat (3 rounds and over 100 points), for tests that are not about the chat. */
export const COMPLETING_MESSAGES = [
  'Hello, I have heard that the MMR vaccine might cause autism. Is that true?',
  'What side effects should I expect after the shot, and how long do they usually last?',
  'Thank you. Is it better to wait until my child is older before getting the second dose?',
];

/**
 * Has the chat the page's participant is at over the API with their token (faster than the chat page, which
 * has its own tests): starts the thread and sends `messages`, each answered in full (no opening message).
 */
export async function chatViaApi(
  page: Page,
  request: APIRequestContext,
  experimentId: string,
  messages: readonly string[] = COMPLETING_MESSAGES,
): Promise<void> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const headers = { authorization: `Bearer ${token ?? ''}` };
  const initiate = await request.post('/api/chat/initiate', { headers, data: { experimentId } });
  expect(initiate.ok(), await initiate.text()).toBe(true);
  const { threadId } = (await initiate.json()) as { threadId: string };
  for (const message of messages) {
    const reply = await request.post(`/api/chat/threads/${threadId}/messages`, { headers, data: { message } });
    expect(await reply.text()).toContain('data: [DONE]');
  }
}

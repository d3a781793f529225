import { expect, type Page } from '@playwright/test';
import { choosePoint, consentAndChoose, landAndLogin, type ParticipantSetup } from './participant';

/** Longest minimum time of any section (spec section 9), plus a second. */
const SECTION_MS = 41_000;

/**
 * From the Prolific link to the chat page through the real pages: consent, entry 'questions',
 * baseline, pre-survey, static intro and the four timed sections (fast-forwarded with page.clock,
 * each scrolled to the end). Call `page.clock.install()` first.
 */
export async function reachChat(page: Page, setup: ParticipantSetup, baseline = 3): Promise<void> {
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
  for (let index = 0; index < 4; index++) {
    await expect(page.getByText(`Section ${index + 1} of 4`)).toBeVisible();
    await page.clock.fastForward(SECTION_MS);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const button = page.getByRole('button', { name: index === 3 ? 'Complete' : 'Next Section' });
    await expect(button).toBeEnabled();
    await button.click();
  }
  await expect(page).toHaveURL(new RegExp(`/experiment/${setup.experimentId}/chat$`));
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

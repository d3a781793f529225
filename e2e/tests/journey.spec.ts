import { expect, test, type Browser, type Page } from '@playwright/test';
import {
  chatLog,
  reachChat,
  reachSections,
  readSections,
  replyFinished,
  sectionOpened,
  sendRound,
} from '../support/chat';
import { passTime, setPageVisible } from '../support/clock';
import {
  choosePoint,
  consentAndChoose,
  landAndLogin,
  landingUrl,
  logInOnLanding,
  setupParticipant,
  type ParticipantSetup,
} from '../support/participant';

// The server owns the journey: another device with the same login resumes at the same step, with the same
// section time left and the same chat; a stale page never ends on an error; hidden time does not count.
test.describe.configure({ timeout: 120_000 });

/** Seconds the section's countdown shows ("You can continue in N seconds."). */
async function secondsShown(page: Page): Promise<number> {
  const text = await page.getByText(/You can continue in \d+ seconds?\./).innerText();
  return Number(/in (\d+) second/.exec(text)?.[1]);
}

/** The same study login on a second device: a new browser context with its own (empty) storage. */
async function secondDevice(browser: Browser, setup: ParticipantSetup, arrive: RegExp): Promise<Page> {
  const context = await browser.newContext();
  const other = await context.newPage();
  await other.clock.install();
  await landAndLogin(other, setup, arrive);
  return other;
}

test('a second device resumes mid-sections at the same section with the same time left', async ({
  page,
  browser,
  request,
}) => {
  const setup = await setupParticipant(request);
  await page.clock.install();
  await reachSections(page, setup);
  await sectionOpened(page);
  await passTime(page, request, 16_000);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.getByRole('button', { name: 'Next Section' }).click();
  await expect(page.getByText('Section 2 of 4')).toBeVisible();
  await sectionOpened(page);
  await passTime(page, request, 8_000);
  const here = await secondsShown(page);
  expect(here).toBeGreaterThanOrEqual(11);
  expect(here).toBeLessThanOrEqual(12);

  const other = await secondDevice(browser, setup, new RegExp(`/experiment/${setup.experimentId}/static$`));
  await expect(other.getByText('Section 2 of 4')).toBeVisible();
  await expect(other.getByRole('progressbar', { name: 'Sections reviewed' })).toHaveAttribute('aria-valuenow', '25');
  await sectionOpened(other);
  const there = await secondsShown(other);
  expect(Math.abs(there - (await secondsShown(page)))).toBeLessThanOrEqual(1);

  // The second device goes on from there: the first section is not asked for again.
  await readSections(other, request, 1);
  await expect(other).toHaveURL(new RegExp(`/experiment/${setup.experimentId}/chat$`));
  await page.reload();
  await expect(page).toHaveURL(new RegExp(`/experiment/${setup.experimentId}/chat$`));
  await other.context().close();
});

test('a second device resumes mid-chat with the same messages and rounds', async ({ page, browser, request }) => {
  const setup = await setupParticipant(request);
  await page.clock.install();
  await reachChat(page, request, setup);
  await page.getByRole('button', { name: 'Start Conversation' }).click();
  await replyFinished(page);
  const question = 'Is a fever after the MMR dose something I should worry about?';
  await sendRound(page, question, 1);
  const messages = await chatLog(page).locator('li').allInnerTexts();
  expect(messages).toHaveLength(3);

  const other = await secondDevice(browser, setup, new RegExp(`/experiment/${setup.experimentId}/chat$`));
  await expect(other.getByRole('button', { name: 'Start Conversation' })).toHaveCount(0);
  await expect(chatLog(other).locator('li')).toHaveCount(3);
  expect(await chatLog(other).locator('li').allInnerTexts()).toEqual(messages);
  await expect(other.getByText('Rounds: 1/3')).toBeVisible();

  // Chatting on there is seen here after a reload.
  await sendRound(other, 'And how soon after the appointment would a fever usually start?', 2);
  await page.reload();
  await expect(chatLog(page).locator('li')).toHaveCount(5);
  await expect(page.getByText('Rounds: 2/3')).toBeVisible();
  await other.context().close();
});

test('a baseline of 7 on a second device after 4 on the first follows the server, never an ERROR page', async ({
  page,
  browser,
  request,
}) => {
  const setup = await setupParticipant(request);
  await landAndLogin(page, setup);
  await consentAndChoose(page, 'questions');
  await expect(page).toHaveURL(/\/baseline-intention$/);
  const other = await secondDevice(browser, setup, /\/baseline-intention$/);

  await choosePoint(page, 4);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/pre-survey$/);

  // The second device still shows the question: its 7 is not the server's answer, so it goes on as the server says.
  await choosePoint(other, 7);
  await other.getByRole('button', { name: 'Continue' }).click();
  await expect(other).toHaveURL(/\/pre-survey$/);
  await expect(other.getByRole('heading', { name: 'Pre-Study Survey' })).toBeVisible();
  await expect(other.getByText('ERROR')).toHaveCount(0);
  expect(await other.evaluate(() => sessionStorage.getItem('baselineIntention'))).toBe('4');
  // Typing the completion page's address does not show a code either.
  await other.goto('/completion?pathway=ceiling');
  await expect(other).toHaveURL(/\/pre-survey$/);
  await other.context().close();
});

test('time with the page hidden does not count; the hidden and visible seconds are stored', async ({
  page,
  request,
}) => {
  const setup = await setupParticipant(request);
  await page.clock.install();
  await reachSections(page, setup);
  await sectionOpened(page);
  // From here the page's clock moves only when the test moves it: real time spent on a loaded machine between
  // two steps would otherwise count as visible time.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 50);
  // Section 1 has a minimum of 15 s in both conditions. The real time between the opening and the pause (under
  // a second, more on a loaded machine) counted as visible, so the count may be a second lower than 10.
  await passTime(page, request, 5_000);
  const before = await secondsShown(page);
  expect(before).toBeGreaterThanOrEqual(9);
  expect(before).toBeLessThanOrEqual(10);
  await setPageVisible(page, false);
  await passTime(page, request, 30_000);
  await setPageVisible(page, true);
  await page.clock.runFor(500);
  // Only the half second visible counted: the 30 s hidden would have left nothing.
  const after = await secondsShown(page);
  expect(after).toBeGreaterThanOrEqual(before - 1);
  expect(after).toBeLessThanOrEqual(before);
  const next = page.getByRole('button', { name: 'Next Section' });
  await expect(next).toBeDisabled();

  await passTime(page, request, 10_500);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const finish = page.waitForRequest((r) => r.url().endsWith('/api/participants/sections/finish'));
  await expect(next).toBeEnabled();
  await next.click();
  const body = (await finish).postDataJSON() as { visibleSeconds: number; hiddenSeconds: number };
  expect(body.hiddenSeconds).toBeGreaterThanOrEqual(30);
  expect(body.hiddenSeconds).toBeLessThan(31);
  expect(body.visibleSeconds).toBeGreaterThanOrEqual(15);
  expect(body.visibleSeconds).toBeLessThan(17);
  await expect(page.getByText('Section 2 of 4')).toBeVisible();

  // The server keeps them beside its own times.
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const journey = await request.get(`/api/participants/journey/${setup.experimentId}`, {
    headers: { authorization: `Bearer ${token ?? ''}` },
  });
  const read = (await journey.json()) as { sections: { hiddenSeconds: number | null; finishedAt: string | null }[] };
  expect(read.sections[0]?.hiddenSeconds).toBe(body.hiddenSeconds);
  expect(read.sections[0]?.finishedAt).not.toBeNull();
});

test('a study session that ends mid-study leads back to the landing, and logging in again continues there', async ({
  page,
  request,
}) => {
  const setup = await setupParticipant(request);
  await landAndLogin(page, setup);
  await consentAndChoose(page, 'questions');
  await expect(page).toHaveURL(/\/baseline-intention$/);

  // The token is revoked (as at expiry): the next call gets 401 and the browser goes to /login, which says why.
  const token = await page.evaluate(() => localStorage.getItem('token'));
  await request.post('/api/auth/logout', { headers: { authorization: `Bearer ${token ?? ''}` }, data: {} });
  await page.reload();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Your study session has ended.')).toBeVisible();
  await page.getByRole('link', { name: 'Return to the study' }).click();
  await expect(page).toHaveURL(/\/prolific\?/);
  expect(new URL(page.url()).search).toBe(new URL(landingUrl(setup), 'http://x').search);
  await logInOnLanding(page, setup);
  await expect(page).toHaveURL(/\/baseline-intention$/);

  // The same participant opening the link again while logged in is offered to continue (issue 34): the same step.
  await page.goto(landingUrl(setup));
  await expect(page.getByRole('button', { name: 'Log Out' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Continue the study' }).click();
  await expect(page).toHaveURL(/\/baseline-intention$/);
});

import { expect, test, type Page } from '@playwright/test';
import { beliefChangeTemplate } from '@studychat/contracts/web';
import { AdminApi } from '../support/api';
import { analyzeSettled } from '../support/axe';
import { doStep, setupFlow, stepOnScreen } from '../support/flow';
import { consentAndChoose, landAndLogin, landingUrl, logInOnLanding, setupParticipant } from '../support/participant';

// The participant's small stops of issue 34, on a phone-sized screen (390 x 844).
const PHONE = { width: 390, height: 844 };

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `/tmp/small-stops-${name}.png`, fullPage: true });
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize(PHONE);
});

test('the same participant reopening the Prolific link mid-study continues where they were', async ({
  page,
  request,
}) => {
  const setup = await setupParticipant(request);
  await landAndLogin(page, setup);
  await page.getByRole('button', { name: 'I Consent' }).click();
  await expect(page).toHaveURL(/\/entry$/);

  // The Prolific link again, as a new tab would open it (no study ids in session storage).
  await page.evaluate(() => sessionStorage.clear());
  await page.goto(landingUrl(setup));
  await expect(page.getByText('You are already logged in to this study.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log Out' })).toHaveCount(0);
  expect((await analyzeSettled(page)).violations).toEqual([]);
  await shot(page, 'continue');
  await page.getByRole('button', { name: 'Continue the study' }).click();
  await expect(page).toHaveURL(/\/entry$/);
  await expect(page.getByRole('heading', { name: 'Appointment Reminder' })).toBeVisible();
});

test('a Prolific id already taking part with another login is told so, not to check the password', async ({
  page,
  browser,
  request,
}) => {
  const setup = await setupParticipant(request);
  const admin = await AdminApi.login(request);
  const [second] = await admin.credentials(setup.experimentId, 1);
  if (!second) throw new Error('no second credential');
  await landAndLogin(page, setup);

  const other = await browser.newContext({ viewport: PHONE });
  const page2 = await other.newPage();
  await page2.goto(landingUrl(setup));
  await logInOnLanding(page2, { ...setup, credential: second });
  const alert = page2.getByRole('alert');
  await expect(alert).toContainText('This Prolific ID is already taking part in this study with another study login.');
  await expect(alert).toContainText('were accepted');
  await expect(alert).not.toContainText('study email and password');
  expect((await analyzeSettled(page2)).violations).toEqual([]);
  await page2.screenshot({ path: '/tmp/small-stops-refused-taken.png', fullPage: true });
  await other.close();
});

test('a long completion code stays on one line on a phone, and Finish leaves on a finished page', async ({
  page,
  request,
}) => {
  const setup = await setupParticipant(request);
  const admin = await AdminApi.login(request);
  const long = `NQ-${setup.experimentId.replace(/-/g, '').slice(0, 25).toUpperCase()}`;
  await admin.call('PUT', `/api/experiments/${setup.experimentId}/completion-codes`, {
    codes: { ...setup.codes, exitnoqualms: long },
  });
  await landAndLogin(page, setup);
  await consentAndChoose(page, 'confirm');
  const code = page.getByTestId('completion-code');
  await expect(code).toHaveText(long);
  const box = await code.evaluate((el) => {
    const style = getComputedStyle(el);
    return {
      height: el.getBoundingClientRect().height,
      lineHeight: parseFloat(style.lineHeight),
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
      fontSize: parseFloat(style.fontSize),
    };
  });
  // One line, wholly visible without scrolling, at a readable size.
  expect(box.height).toBeLessThan(box.lineHeight * 1.5);
  expect(box.scrollWidth).toBeLessThanOrEqual(box.clientWidth);
  expect(box.fontSize).toBeGreaterThanOrEqual(12);
  await shot(page, 'long-code');

  const popup = page.context().waitForEvent('page');
  await page.getByRole('link', { name: /Submit code on Prolific/ }).click();
  await (await popup).close();
  await page.getByRole('button', { name: 'Finish & Close Window' }).click();
  await expect(page).toHaveURL(/\/finished$/);
  await expect(page.getByRole('heading', { name: 'You have finished the study' })).toBeVisible();
  await expect(page.getByText('you may now close this tab')).toBeVisible();
  await expect(page.getByText(setup.prolificPid)).toBeVisible();
  expect((await analyzeSettled(page)).violations).toEqual([]);
  await shot(page, 'finished');
});

test('the required intention scale shows its asterisk and is announced as required', async ({ page, request }) => {
  const setup = await setupParticipant(request);
  await landAndLogin(page, setup);
  await consentAndChoose(page, 'questions');
  const group = page.getByRole('group', { name: /\(required\)$/ });
  await expect(group).toBeVisible();
  await expect(group.locator('legend')).toContainText('*');
  expect((await analyzeSettled(page)).violations).toEqual([]);
  await shot(page, 'baseline-required');
});

test('a flow study: the same participant continues from the link, and required questions are marked', async ({
  page,
  request,
}) => {
  const setup = await setupFlow(request, beliefChangeTemplate);
  await page.clock.install();
  await page.goto(landingUrl(setup));
  await logInOnLanding(page, setup);
  await expect(page).toHaveURL(new RegExp(`/flow/${setup.experimentId}$`));
  while ((await stepOnScreen(page)) !== 'questions') await doStep(page, request);
  // The required question carries the asterisk and is announced as required.
  await expect(page.getByRole('textbox', { name: /\(required\)$/ })).toBeVisible();
  await expect(page.getByText('*', { exact: true }).first()).toBeVisible();
  expect((await analyzeSettled(page)).violations).toEqual([]);
  await shot(page, 'flow-questions');

  await page.evaluate(() => sessionStorage.clear());
  await page.goto(landingUrl(setup));
  await page.getByRole('button', { name: 'Continue the study' }).click();
  await expect(page).toHaveURL(new RegExp(`/flow/${setup.experimentId}$`));
  expect(await stepOnScreen(page)).toBe('questions');
});

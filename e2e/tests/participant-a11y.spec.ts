import { expect, test, type Page } from '@playwright/test';
import { chatViaApi, readSections, sectionOpened } from '../support/chat';
import { choosePoint, landAndLogin, landingUrl, setupParticipant } from '../support/participant';
import { analyzeSettled } from '../support/axe';

// Screenshots for a visual check when SHOTS_DIR is set (e.g. SHOTS_DIR=/tmp/shots).
const SHOTS_DIR = process.env.SHOTS_DIR;
// A long walk through the study; the shared CI machine can be slow.
test.describe.configure({ timeout: 120_000 });

async function check(page: Page, name: string, size: string): Promise<void> {
  // The page itself, not the loading placeholder while the guard checks the completion status.
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('Loading...')).toHaveCount(0);
  if (SHOTS_DIR) await page.screenshot({ path: `${SHOTS_DIR}/${size}-${name}.png`, fullPage: true });
  const { violations } = await analyzeSettled(page);
  expect(violations.map((v) => `${name}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

for (const size of ['phone', 'desktop'] as const) {
  test.describe(`every participant page has no axe violations (${size})`, () => {
    if (size === 'phone') test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

    test('landing to the static sections, and the completion page', async ({ page, request }) => {
      const setup = await setupParticipant(request);
      await page.clock.install();
      await page.goto('/prolific');
      await check(page, 'prolific-missing', size);
      await page.goto(landingUrl(setup));
      await check(page, 'prolific', size);
      await landAndLogin(page, setup);
      await check(page, 'consent', size);
      await page.getByRole('button', { name: 'I Consent' }).click();
      await expect(page).toHaveURL(/\/entry$/);
      await check(page, 'entry', size);
      await page.goto('/confirm');
      await check(page, 'confirm', size);
      await page.goto('/entry');
      await page.getByRole('button', { name: 'I have questions or concerns about MMR' }).click();
      await expect(page).toHaveURL(/\/baseline-intention$/);
      await choosePoint(page, 3);
      await check(page, 'baseline', size);
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page).toHaveURL(/\/pre-survey$/);
      await page.getByText('35-44', { exact: true }).click();
      await check(page, 'pre-survey', size);
      await page.getByText('Male', { exact: true }).click();
      await page.getByText('Liberal', { exact: true }).click();
      await page.getByRole('button', { name: 'Submit Survey' }).click();
      await page.clock.runFor(1500);
      await expect(page).toHaveURL(/\/static-intro$/);
      await check(page, 'static-intro', size);
      await page.getByRole('button', { name: 'Begin' }).click();
      await sectionOpened(page);
      await page.clock.runFor(3000);
      await check(page, 'static', size);
      // The post-survey comes after the sections and a complete chat (the chat page has its own axe checks).
      await readSections(page, request);
      await chatViaApi(page, request, setup.experimentId);
      await page.goto('/post-survey');
      await check(page, 'post-survey', size);
      await choosePoint(page, 5);
      await page.getByRole('button', { name: 'Finish' }).click();
      await page.clock.runFor(1500);
      await expect(page.getByRole('heading', { name: 'Study Complete!' })).toBeVisible();
      await expect(page.getByText(setup.codes.complete ?? '', { exact: true })).toBeVisible();
      await check(page, 'completion', size);
    });
  });
}

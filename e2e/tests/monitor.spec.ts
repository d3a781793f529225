import { expect, test, type Page } from '@playwright/test';
import { loginAsAdmin } from '../support/admin';
import { choosePoint, consentAndChoose, landAndLogin, setupParticipant } from '../support/participant';
import { analyzeSettled } from '../support/axe';

// The live study monitor (issue 10): an admin keeps it open while a participant moves through the study in
// another browser, and sees the participant move and the counts change without reloading.

test.describe.configure({ timeout: 120_000 });

/** The monitor's row of the participant with this Prolific id. */
const rowOf = (page: Page, pid: string) => page.getByTestId('monitor-row').filter({ hasText: pid });

async function axeClean(page: Page, name: string): Promise<void> {
  for (const [label, size] of [
    ['laptop', { width: 1280, height: 800 }],
    ['tablet', { width: 768, height: 1024 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: test.info().outputPath(`${name}-${label}.png`), fullPage: true });
    const { violations } = await analyzeSettled(page);
    expect(
      violations.map((v) => `${name} ${label}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('the admin watches a participant move through the study on the live monitor, without reloading', async ({
  page,
  browser,
  request,
}) => {
  const setup = await setupParticipant(request);
  await loginAsAdmin(page);
  await page.goto(`/admin/experiments/${setup.experimentId}`);
  const monitor = page.getByRole('region', { name: 'Live Monitor' });
  await expect(monitor).toBeVisible();
  await expect(page.getByTestId('monitor-live')).toHaveText('Live');
  await expect(page.getByTestId('monitor-total')).toHaveText('0');
  // A mark that a reload would wipe out.
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));

  const context = await browser.newContext();
  const participant = await context.newPage();
  await landAndLogin(participant, setup);
  await expect(page.getByTestId('monitor-total')).toHaveText('1');
  await expect(rowOf(page, setup.prolificPid)).toContainText('Consent');
  // Before assignment the list says what the cards count (issue 30): not yet assigned.
  await expect(rowOf(page, setup.prolificPid)).toContainText('Not yet assigned');

  await consentAndChoose(participant, 'questions');
  await expect(rowOf(page, setup.prolificPid)).toContainText('Baseline');
  await expect(page.getByTestId('funnel-consented')).toContainText('1');

  await choosePoint(participant, 4);
  await participant.getByRole('button', { name: 'Continue' }).click();
  await expect(participant).toHaveURL(/\/pre-survey$/);
  await expect(rowOf(page, setup.prolificPid)).toContainText('Pre-survey');
  await expect(page.getByTestId('funnel-baseline')).toContainText('1');
  await expect(page.getByTestId('monitor-not-yet-assigned')).toHaveText('1');
  // The Participant Summary card follows the same stream: its total is the first figure.
  const summaryCard = page.getByRole('heading', { name: 'Participant Summary' }).locator('..');
  await expect(summaryCard.locator('dd').first()).toHaveText('1');

  // Search and status filter.
  await page.getByLabel('Search by Prolific ID or login').fill(setup.prolificPid.toLowerCase());
  await expect(page.getByTestId('monitor-row')).toHaveCount(1);
  await page.getByLabel('Status', { exact: true }).selectOption('completed');
  await expect(page.getByTestId('monitor-row')).toHaveCount(0);
  await page.getByLabel('Status', { exact: true }).selectOption('in_progress');
  await expect(page.getByTestId('monitor-row')).toHaveCount(0);
  await page.getByLabel('Status', { exact: true }).selectOption('not_yet_assigned');
  await expect(page.getByTestId('monitor-row')).toHaveCount(1);

  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  await axeClean(page, 'monitor');
  await context.close();
});

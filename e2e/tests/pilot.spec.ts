import { expect, test } from '@playwright/test';
import { loginAsAdmin } from '../support/admin';
import { AdminApi } from '../support/api';
import { analyzeSettled } from '../support/axe';

// Issue 35 on the admin's experiment page: a pilot run with simulated participants (scripted personas through the
// participant API on a pilot clock) started with a loading state, its report read in tables with the caveat, and
// a pilot participant's page reached from it; the pilot participants stay out of the summary (test runs).

test('the experiment page runs a pilot and shows its report; pilot participants are test runs', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const admin = await AdminApi.login(request);
  const experiment = await admin.createExperiment(`Pilot ${Date.now()}`);

  await loginAsAdmin(page);
  await page.goto(`/admin/experiments/${experiment.id}`);
  const card = page.getByRole('region', { name: 'Pilot with simulated participants' });
  await expect(card.getByText('No pilot has been run for this experiment yet.')).toBeVisible();
  await card.getByLabel('Simulated participants').fill('6');
  await card.getByLabel('Target sample size').fill('300');
  await card.getByText(/Personas \(6, seed/).click();
  await card.getByLabel('Persona 1 tendency to leave').selectOption('unlikely');
  await card.getByRole('button', { name: 'Run pilot' }).click();
  await expect(card.getByTestId('pilot-summary')).toContainText('of 6 simulated participants completed', {
    timeout: 60_000,
  });
  await expect(card.getByText(/cannot tell you effect sizes/)).toBeVisible();
  for (const arm of ['mmr', 'control']) {
    const row = card.getByTestId(`pilot-arm-${arm}`);
    await expect(row).toContainText('3');
    await expect(row).toContainText(/\d+ of \d+/);
  }
  await expect(card.getByTestId('pilot-pathway-complete')).toBeVisible();
  await expect(card.getByTestId('pilot-step-sections')).toBeVisible();

  await page.screenshot({ path: test.info().outputPath('pilot.png'), fullPage: true });
  const { violations } = await analyzeSettled(page);
  expect(violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // Test runs: the summary counts nobody; the report links each pilot participant's own page.
  const summary = await admin.call<{ total: number }>('GET', `/api/experiments/${experiment.id}/participant-summary`);
  expect(summary.total).toBe(0);
  const first = card.getByRole('link', { name: /^PILOT-/ }).first();
  const short = ((await first.textContent()) ?? '').replace('PILOT-', '').toLowerCase();
  await first.click();
  await expect(page).toHaveURL(/\/admin\/user\//);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`pilot-${short}-`);
});

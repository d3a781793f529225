import { expect, test } from '@playwright/test';
import { loginAsAdmin } from '../support/admin';
import { AdminApi } from '../support/api';
import { analyzeSettled } from '../support/axe';

// Joining by Prolific's study link alone (docs/decisions/0086-prolific-link-join.md), in Chromium: an admin turns
// the setting on by keyboard on the experiment page; a participant's Prolific link starts the study with no
// login, the same link resumes it on another device, and a forged SESSION_ID is refused with its own page.

test('a participant joins by the Prolific link alone, resumes on another device, and a forged link is refused', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const admin = await AdminApi.login(request);
  const experiment = await admin.createExperiment(`Link join ${Date.now()}`);

  await loginAsAdmin(page);
  await page.goto(`/admin/experiments/${experiment.id}`);
  await expect(page.getByTestId('prolific-link-join')).toContainText('With a study login (the default)');
  await page.getByRole('button', { name: 'Let participants join by the link alone' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('prolific-link-join')).toContainText('By the study link alone');

  const pid = `PID${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`.toUpperCase();
  const link = (sessionId: string) =>
    `/prolific?PROLIFIC_PID=${pid}&STUDY_ID=STUDYE2E1&SESSION_ID=${sessionId}&EXPERIMENT_ID=${experiment.id}`;

  const phone = await browser.newContext();
  const first = await phone.newPage();
  await first.goto(link('SESSIONE2E1'));
  await expect(first).toHaveURL(/\/consent$/);
  await phone.close();

  const laptop = await browser.newContext();
  const again = await laptop.newPage();
  await again.goto(link('SESSIONE2E1'));
  await expect(again).toHaveURL(/\/consent$/);
  await laptop.close();

  const other = await browser.newContext();
  const forged = await other.newPage();
  await forged.goto(link('FORGEDSESSION1'));
  await expect(forged.getByText('This link cannot continue the study.')).toBeVisible();
  await expect(forged.getByLabel('Study email')).toHaveCount(0);
  const { violations } = await analyzeSettled(forged);
  expect(violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await other.close();
});

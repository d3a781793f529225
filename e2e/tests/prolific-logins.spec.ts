import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import type { LoginResult } from '@studychat/contracts/web';
import { loginAsAdmin } from '../support/admin';
import { AdminApi } from '../support/api';
import { analyzeSettled } from '../support/axe';

async function noAxeViolations(page: Page, name: string): Promise<void> {
  const { violations } = await analyzeSettled(page);
  expect(violations.map((v) => `${name}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('an admin generates logins with spares, downloads them for Prolific and sees which were used', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const admin = await AdminApi.login(request);
  const experiment = await admin.createExperiment(`Prolific logins ${Date.now()}`);
  await page.setViewportSize({ width: 1280, height: 800 });
  await loginAsAdmin(page);
  await page.goto(`/admin/experiments/${experiment.id}`);
  await expect(page.getByText('No study logins generated yet.')).toBeVisible();

  // Four places plus 50% spares: six logins.
  await page.getByLabel('Number of credentials').fill('4');
  await page.getByLabel('Spares (%)').fill('50');
  await expect(page.getByText(/^6 logins: 4 plus 2 spares/)).toBeVisible();
  await page.getByRole('button', { name: 'Generate' }).click();
  const generated = page.getByRole('region', { name: 'Generated credentials' });
  await expect(generated.getByRole('row')).toHaveCount(7);

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download for Prolific (CSV)' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(
    new RegExp(`^prolific-credentials-${experiment.id.slice(0, 8)}-.*\\.csv$`),
  );
  const lines = (await readFile(await download.path(), 'utf8')).split('\n');
  expect(lines.pop()).toBe('');
  expect(lines).toHaveLength(6);
  for (const line of lines) expect(line).toMatch(/^study-[a-z2-9]{8}@studychat\.local,[A-Za-z2-9]{16}$/);
  const [email = '', password = ''] = (lines[0] ?? '').split(',');
  await expect(generated).toContainText(email);

  const logins = page.getByRole('region', { name: 'Study logins' });
  await expect(logins.getByRole('row')).toHaveCount(7);
  await expect(page.getByText('Unused', { exact: true }).locator('xpath=..').getByRole('definition')).toHaveText('6');
  await noAxeViolations(page, 'experiment with logins');

  // One login is used on Prolific: it logs in and joins with its Prolific id.
  const res = await request.post('/api/auth/login', { data: { email, password } });
  const { token, user } = (await res.json()) as LoginResult;
  const joined = await request.post('/api/participants', {
    headers: { authorization: `Bearer ${token}` },
    data: { user_id: user.id, experiment_id: experiment.id, prolific_pid: 'PROLIFIC-E2E-1' },
  });
  expect(joined.ok()).toBe(true);

  await page.reload();
  await page.getByRole('button', { name: 'Used', exact: true }).click();
  await expect(logins.getByRole('row')).toHaveCount(2);
  await expect(logins.getByRole('row').nth(1)).toContainText(email);
  await expect(logins.getByRole('row').nth(1)).toContainText('Joined');
  await expect(logins.getByRole('row').nth(1)).toContainText('PROLIFIC-E2E-1');
  await page.getByRole('button', { name: 'Unused', exact: true }).click();
  await expect(logins.getByRole('row')).toHaveCount(6);
  await logins.scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/admin-study-logins-laptop.png', fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await noAxeViolations(page, 'experiment with logins, phone');
  await page.screenshot({ path: '/tmp/admin-study-logins-phone.png', fullPage: true });
});

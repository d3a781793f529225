import { expect, test } from '@playwright/test';
import { loginAsAdmin } from '../support/admin';
import { analyzeSettled } from '../support/axe';

// The Prolific card on the admin Security page (docs/decisions/0083-prolific-api.md), in Chromium: an admin
// sets the token and webhook secret (never shown again), tests the connection (the test server's Prolific is a
// closed local port, so the test reports it unreachable, and nothing leaves this machine), and clears both.
// Keyboard only, axe clean.

test('an admin connects Prolific, tests the connection and clears it, by keyboard', async ({ page }) => {
  await loginAsAdmin(page);
  await page.goto('/admin/security');
  const card = page
    .locator('section, div')
    .filter({ has: page.getByRole('heading', { name: 'Prolific' }) })
    .last();
  await expect(page.getByTestId('prolific-state')).toContainText('Not connected');

  await page.getByLabel('API token').focus();
  await page.keyboard.type('e2e-prolific-token-0001');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Webhook secret')).toBeFocused();
  await page.keyboard.type('e2e-webhook-secret-0001');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('prolific-state')).toContainText('Connected: an API token is set');
  await expect(page.getByTestId('prolific-state')).toContainText('A webhook secret is set.');
  await expect(page.getByLabel('API token')).toHaveValue('');
  await expect(card).not.toContainText('e2e-prolific-token-0001');

  await page.getByRole('button', { name: 'Test connection' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toContainText('Prolific could not be reached');

  const { violations } = await analyzeSettled(page);
  expect(violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  await page.getByRole('button', { name: 'Clear' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('prolific-state')).toContainText('Not connected');
});
